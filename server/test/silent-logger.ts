import type { FastifyBaseLogger } from 'fastify';

const quiet = () => {};

/** A logger that says nothing, for code under test that wants one. */
export const silentLogger = {
  level: 'silent',
  fatal: quiet,
  error: quiet,
  warn: quiet,
  info: quiet,
  debug: quiet,
  trace: quiet,
  silent: quiet,
  child: () => silentLogger,
} as unknown as FastifyBaseLogger;
