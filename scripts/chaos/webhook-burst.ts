import type pg from 'pg';
import type { SandboxEvent } from '#server/platform/payments/sandbox/sandbox-objects.ts';
import { eventPayload } from '#server/platform/payments/sandbox/webhook-events.ts';
import {
  SIGNATURE_HEADER,
  signSandboxWebhook,
} from '#server/platform/payments/sandbox/webhook-signature.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { endpointUrl } from '#shared/contracts/endpoint.ts';
import type { Traffic } from './traffic.ts';

// A gateway's burst: the sandbox's real events of this run (orders, payments, invoices,
// cards) sent again under new event ids, a third of them twice, all shuffled, as a processor
// redelivering after an outage would. Every one must be stored once, and since each carries
// a state no newer than ours, applying them must change nothing.

export interface Burst {
  /** The event ids sent, each once or more. */
  ids: string[];
  sent: number;
  /** Answers by status (0: none). */
  statuses: Map<number, number>;
  seconds: number;
}

const WEBHOOK_PATH = endpointUrl(billingEndpoints.webhook.url, { gateway: 'sandbox' });

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

export async function webhookBurst(
  traffic: Traffic,
  db: pg.Pool,
  secret: string,
  options: { total: number; seconds: number; concurrency: number; run: string },
): Promise<Burst> {
  const unique = Math.ceil((options.total * 2) / 3);
  const found = await db.query<{ data: SandboxEvent }>(
    "select data from sandbox_objects where kind = 'event' order by created_at",
  );
  if (found.rows.length === 0) throw new Error('no sandbox events to send again');
  const bodies: { id: string; body: string }[] = [];
  for (let i = 0; i < unique; i += 1) {
    const event = found.rows[i % found.rows.length]?.data as SandboxEvent;
    const id = `evt_chaos_${options.run}_${i}`;
    bodies.push({ id, body: JSON.stringify({ ...eventPayload(event), id }) });
  }
  const deliveries = shuffle([...bodies, ...bodies.slice(0, options.total - unique)]);
  const statuses = new Map<number, number>();
  const started = performance.now();
  const perDeliveryMs = (options.seconds * 1_000) / deliveries.length;
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < deliveries.length) {
        const index = next++;
        const delivery = deliveries[index];
        if (!delivery) break;
        // Spread over the window: delivery i is due at i × perDeliveryMs.
        const due = started + index * perDeliveryMs - performance.now();
        if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
        // A gateway sends again what was not answered 2xx (later, with back-off).
        for (let attempt = 0; attempt < 5; attempt += 1) {
          const answer = await traffic.call('webhook', 'POST', WEBHOOK_PATH, {
            body: delivery.body,
            headers: { [SIGNATURE_HEADER]: signSandboxWebhook(secret, delivery.body) },
          });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status >= 200 && answer.status < 300) break;
          await new Promise((resolve) => setTimeout(resolve, 1_000 * 2 ** attempt));
        }
      }
    }),
  );
  return {
    ids: bodies.map((body) => body.id),
    sent: deliveries.length,
    statuses,
    seconds: (performance.now() - started) / 1_000,
  };
}
