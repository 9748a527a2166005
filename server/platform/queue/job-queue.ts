import type { Database } from '../../db/client.ts';

/**
 * Durable jobs (renewals, dunning, period-end changes): kept in the database, so they survive
 * a restart, each taken by one process at a time, and retried with back-off when they throw.
 * Delivery is at least once (a process that dies mid-job leaves it to be retried once it
 * expires), so a handler must be safe to run again for the same job.
 */
export interface JobQueue {
  /**
   * Enqueues a job; answers its id, or null when `singletonKey` found a job of that key
   * still waiting to start. A job sent while handling a request runs for it: its log lines
   * carry the request's id.
   */
  send(name: string, data: object, options?: SendOptions): Promise<string | null>;
  /**
   * Handles the jobs of `name` in this process, one at a time unless `concurrency` says
   * more; a handler that throws has its job retried. Workers start when the app is ready.
   */
  work(name: string, handler: JobHandler, options?: WorkOptions): Promise<void>;
  /**
   * Sends a job to `name` on every tick of `cron` (five fields, UTC), once across all
   * processes. The schedule is kept in the database: it stays until `unschedule`.
   */
  schedule(name: string, cron: string, data?: object): Promise<void>;
  unschedule(name: string): Promise<void>;
  /**
   * Has this process's workers of `name` look for jobs now rather than at their next poll:
   * for a job sent in a transaction, once it has committed (a send outside one wakes them).
   */
  wake(name: string): void;
  /**
   * For tests and scripts: wakes this process's workers and resolves once no job of their
   * queues is due and waiting or running (jobs whose start or retry lies ahead are left).
   */
  drain(options?: { timeoutMs?: number }): Promise<void>;
}

export interface SendOptions {
  /** Not before this moment, or this many seconds from now. */
  startAfter?: Date | number;
  /**
   * A second send with the same key (and name) is a no-op while a job with it waits to
   * start; once that one runs (or waits for a retry) the key is free again.
   */
  singletonKey?: string;
  /** Attempts after the first (5 by default). */
  retryLimit?: number;
  /** Seconds before a retry (10 by default); with back-off, doubled each time, jittered. */
  retryDelaySeconds?: number;
  /** Exponential back-off between retries (on by default). */
  retryBackoff?: boolean;
  /**
   * Enqueues within this transaction, so the job exists only if it commits. Inside a
   * transaction always pass it: on PGlite (one connection) a send outside it would wait for
   * the transaction to end, which waits for the send.
   */
  transaction?: Database;
}

export interface WorkOptions {
  /** Jobs of this queue run at once in this process (1 by default). */
  concurrency?: number;
}

export interface Job {
  id: string;
  name: string;
  data: unknown;
  /** 0 on the first attempt. */
  retryCount: number;
}

export type JobHandler = (job: Job) => Promise<void>;

/** `renewals`, `billing.dunning`, `mail-list_send`: what pg-boss and a log line both take. */
const QUEUE_NAME = /^[a-z0-9][\w.-]{0,99}$/i;

export function assertQueueName(name: string): void {
  if (!QUEUE_NAME.test(name)) throw new Error(`invalid queue name: ${JSON.stringify(name)}`);
}
