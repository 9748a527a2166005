import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger } from 'fastify';

// The request id a piece of work runs for, carried through its awaits, so that every log
// line written meanwhile names it (whichever logger writes it: the app's, the mailer's, the
// queue's) and a job the work enqueues carries it on (server/platform/queue/pg-boss-queue.ts).

interface LogContext {
  reqId: string;
}

const context = new AsyncLocalStorage<LogContext>();

/**
 * Set on a logger that already binds `reqId` (a request's, a job's) and inherited by its
 * children (pino makes a child with Object.create): the mixin leaves such loggers alone, or
 * the key would be written twice.
 */
const BINDS_REQ_ID = Symbol('binds reqId');

type Marked = FastifyBaseLogger & { [BINDS_REQ_ID]?: true };

/** Runs `work` (and all it awaits or starts) for the request `reqId`. */
export function withRequestId<T>(reqId: string, work: () => T): T {
  return context.run({ reqId }, work);
}

/** The request id the current work runs for, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.reqId;
}

/** Marks a logger whose bindings hold `reqId` (Fastify's request logger, a job's). */
export function markBound<T extends FastifyBaseLogger>(log: T): T {
  (log as Marked)[BINDS_REQ_ID] = true;
  return log;
}

/** A child of `log` bound to `reqId`. */
export function boundToRequest(log: FastifyBaseLogger, reqId: string): FastifyBaseLogger {
  return markBound(log.child({ reqId }));
}

const NONE = Object.freeze({});

/**
 * pino's `mixin` and `mixinMergeStrategy`: a line written by a logger that does not bind the
 * request id gets the current one, if there is one. Called for every line, so it only reads
 * a store and a property; pino's default strategy would write into NONE.
 */
export const requestIdMixin = {
  mixin(_line: object, _level: number, logger: unknown): object {
    if ((logger as Marked)[BINDS_REQ_ID]) return NONE;
    const store = context.getStore();
    return store ? { reqId: store.reqId } : NONE;
  },
  mixinMergeStrategy(line: object, mixed: object): object {
    return mixed === NONE ? line : Object.assign(mixed, line);
  },
};
