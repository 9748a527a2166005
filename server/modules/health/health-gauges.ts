import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_STATUSES } from '#shared/vpn/fleet-rules.ts';
import { boundedRead } from '../../db/bounded-read.ts';
import { poolUsage } from '../../db/pool-usage.ts';
import { type OutboxBacklog, readOutboxBacklog } from '../../platform/mail/outbox-backlog.ts';
import { type GaugeSpec, SCRAPE_READ_TIMEOUT_MS } from '../../platform/metrics/metrics.ts';
import { type QueueStats, readQueueStats } from '../../platform/queue/queue-stats.ts';
import { readWebhookLag, type WebhookLag } from '../billing/webhook-lag.ts';
import { type FleetHealth, readFleetHealth } from '../vpn/fleet-health.ts';

// The gauges an operator watches the product by (docs/operations/observability.md "Metrics and alerts"),
// each read by the module that owns its figures, at scrape time (app.metrics). With metrics
// off none of this runs.

interface DatabaseFigures {
  queues: QueueStats[];
  outbox: OutboxBacklog | undefined;
  webhooks: WebhookLag[];
  fleet: FleetHealth;
}

export const healthGauges = fp(
  async (app: FastifyInstance) => {
    const { metrics } = app;

    if (poolUsage(app.db)) {
      metrics.readAtScrape('db_pool', () => poolUsage(app.db), [
        {
          name: 'db_pool_connections',
          help: 'PostgreSQL connections open in this process, by state.',
          labelNames: ['state'],
          values: (pool) =>
            pool
              ? [
                  { labels: { state: 'idle' }, value: pool.idle },
                  { labels: { state: 'busy' }, value: pool.open - pool.idle },
                ]
              : [],
        },
        {
          name: 'db_pool_max_connections',
          help: 'The pool size: connections this process may open.',
          values: (pool) => (pool ? [{ value: pool.max }] : []),
        },
        {
          name: 'db_pool_waiting_queries',
          help: 'Queries waiting for a free connection of the pool.',
          values: (pool) => (pool ? [{ value: pool.waiting }] : []),
        },
      ]);
    }

    // One transaction for every database figure: one connection a scrape, and statements the
    // server stops if the database is struggling (the scrape's own deadline answers first).
    const smtp = app.config.smtpUrl !== undefined;
    const readDatabase = (): Promise<DatabaseFigures> =>
      boundedRead(app.db, SCRAPE_READ_TIMEOUT_MS, async (tx) => ({
        queues: await readQueueStats(tx),
        // Without SMTP_URL the outbox is where mail goes, not a backlog.
        outbox: smtp ? await readOutboxBacklog(tx) : undefined,
        webhooks: await readWebhookLag(tx),
        fleet: await readFleetHealth(tx),
      }));
    const databaseGauges: GaugeSpec<DatabaseFigures>[] = [
      {
        name: 'job_queue_waiting_jobs',
        help: 'Durable jobs due and not yet taken by a worker, by queue.',
        labelNames: ['queue'],
        values: ({ queues }) =>
          queues.map((q) => ({ labels: { queue: q.queue }, value: q.waiting })),
      },
      {
        name: 'job_queue_active_jobs',
        help: 'Durable jobs a worker is running, by queue.',
        labelNames: ['queue'],
        values: ({ queues }) =>
          queues.map((q) => ({ labels: { queue: q.queue }, value: q.active })),
      },
      {
        name: 'job_queue_oldest_waiting_seconds',
        help: 'How long the oldest due job of a queue has waited for a worker (0: none waits).',
        labelNames: ['queue'],
        values: ({ queues }) =>
          queues.map((q) => ({ labels: { queue: q.queue }, value: q.oldestWaitingSeconds })),
      },
      {
        name: 'webhook_apply_lag_seconds',
        help: 'Receipt to application of payment gateway events: the slowest applied in the last 5 minutes, or the oldest still failing.',
        labelNames: ['gateway'],
        values: ({ webhooks }) =>
          webhooks.map((w) => ({ labels: { gateway: w.gateway }, value: w.lagSeconds })),
      },
      {
        name: 'webhook_unapplied_events',
        help: 'Payment gateway events of the last day whose last attempt failed, by gateway.',
        labelNames: ['gateway'],
        values: ({ webhooks }) =>
          webhooks.map((w) => ({ labels: { gateway: w.gateway }, value: w.unapplied })),
      },
      {
        name: 'vpn_servers',
        help: 'VPN servers by status (online, offline after 60 s of silence, maintenance …).',
        labelNames: ['status'],
        values: ({ fleet }) =>
          SERVER_STATUSES.map((status) => ({ labels: { status }, value: fleet.servers[status] })),
      },
      {
        name: 'vpn_node_report_lag_seconds',
        help: 'The longest silence of an online VPN node since its last report (they report every 10 s).',
        values: ({ fleet }) => [{ value: fleet.reportLagSeconds }],
      },
    ];

    if (smtp) {
      databaseGauges.push(
        {
          name: 'mail_outbox_pending_messages',
          help: 'Mail not yet handed to the SMTP server (mail_outbox states outbox and retrying, last day).',
          values: ({ outbox }) => (outbox ? [{ value: outbox.pending }] : []),
        },
        {
          name: 'mail_outbox_oldest_pending_seconds',
          help: 'Age of the oldest mail not yet handed to the SMTP server (0: none).',
          values: ({ outbox }) => (outbox ? [{ value: outbox.oldestPendingSeconds }] : []),
        },
      );
    }
    metrics.readAtScrape('database', readDatabase, databaseGauges);

    if (app.realtime.connections() !== undefined) {
      metrics.readAtScrape('realtime', () => app.realtime.connections() ?? 0, [
        {
          name: 'realtime_connections',
          help: 'Websockets open on this process (the built-in realtime server).',
          values: (open) => [{ value: open }],
        },
      ]);
    }
  },
  { name: 'health-gauges', dependencies: ['metrics', 'database', 'realtime'] },
);
