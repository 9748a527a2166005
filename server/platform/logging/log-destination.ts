import pino from 'pino';

// pino's own stdout writer hands every line to libuv's thread pool as it comes (an async
// write, a pool thread woken per line), a cost every request paid (docs/operations/
// benchmarks.md). Lines are gathered into writes of 4 KB instead (pino's advice for asynchronous
// logging), a write per dozen lines or so. What is gathered is written when the process exits
// (pino flushes it, after a crash too) and lost only if a signal it does not handle kills it
// (SIGKILL, the out-of-memory killer): a second of lines at most.

/** Lines are written once this many bytes wait … */
const GATHER_BYTES = 4096;
/** … and at least this often, so a quiet hour's lines are not held back. */
const FLUSH_MS = 1_000;

function gathering(dest: number | string) {
  return pino.destination({ dest, sync: false, minLength: GATHER_BYTES, periodicFlush: FLUSH_MS });
}

let stdout: ReturnType<typeof gathering> | undefined;

/**
 * Where log lines go: stdout, whence a deployment's collector reads them, or a file. Every
 * app of the process shares the one stdout writer (tests build many), as they share stdout.
 */
export function logDestination(file?: string): ReturnType<typeof gathering> {
  if (file !== undefined) return gathering(file);
  stdout ??= gathering(1);
  return stdout;
}
