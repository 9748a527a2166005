// One JSON object a line on stdout, the shape journald, Loki and `jq` read without a parser
// of ours. The agent ships alone, so it carries these few lines rather than a logging library.

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** An error as a log field: its message and the cause's (fetch hides ECONNREFUSED there). */
function plain(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const cause = value.cause instanceof Error ? value.cause.message : undefined;
  return cause ? { message: value.message, cause } : { message: value.message };
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at =
    (name: LogLevel) =>
    (msg: string, fields: LogFields = {}) => {
      if (LOG_LEVELS.indexOf(name) < threshold) return;
      const entries = Object.entries(fields).map(([key, value]) => [key, plain(value)]);
      const line = {
        time: new Date().toISOString(),
        level: name,
        msg,
        ...Object.fromEntries(entries),
      };
      write(`${JSON.stringify(line)}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
