import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client.ts';
import type { JobQueue } from '../../queue/job-queue.ts';
import type { BillingClock } from '../billing-clock.ts';

/** What the sandbox's parts share: its database, its time, and where its events go. */
export interface SandboxContext {
  db: Database;
  /** The billing clock: the sandbox's "now" everywhere (the test clock moves it). */
  clock: BillingClock;
  queue: JobQueue;
  log: FastifyBaseLogger;
  /** Our own origin: the confirmation page's address, and where it may send people back. */
  appUrl: string;
  /** Shown on the confirmation page as the shop being paid. */
  merchantName: string;
  webhookSecret: string;
  /** Seconds before a failed webhook delivery is tried again (doubled each time). */
  webhookRetryDelaySeconds: number;
  /** Hands committed events to the delivery queue (webhook-delivery.ts). */
  announce(eventIds: string[]): Promise<void>;
}
