import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigError } from '#server/config.ts';

// What `npm run backup` and `npm run restore` share: a refusal the operator can act on, and
// the one-line way every failure ends (an operator reads a cron mail, not a stack trace).

/** A backup or restore refused or failed for a reason the message states in full. */
export class BackupError extends Error {}

/** What a backup or a restore did, printed line by line. */
export interface BackupReport {
  /** The first line: what was copied where. */
  summary: string;
  /** What the operator must know besides (what is not in the backup, what to do next). */
  notes: string[];
}

/** The command line by `options`; a mistake is a refusal that shows the usage. */
export function readArguments<T extends ParseArgsConfig>(config: T, usage: string) {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new BackupError(`${(error as Error).message.split('\n')[0]} (usage: ${usage})`);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Runs a command's body: its report on stdout, or one line on stderr and exit 1. Our own
 * refusals and bad settings say everything in their message; anything else is named as
 * unexpected, still on one line.
 */
export async function runCommand(name: string, body: () => Promise<BackupReport>): Promise<void> {
  try {
    const report = await body();
    console.log(report.summary);
    for (const note of report.notes) console.log(`  ${note}`);
  } catch (error) {
    const known = error instanceof BackupError || error instanceof ConfigError;
    const message = error instanceof Error ? error.message : String(error);
    const line = message.split('\n')[0]?.trim() || 'unknown error';
    console.error(known ? `${name}: ${line}` : `${name} failed unexpectedly: ${line}`);
    process.exitCode = 1;
  }
}
