import { and, eq } from 'drizzle-orm';
import { gatewayEvents } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { GatewayEvent, PaymentGateway } from '../../platform/payments/gateway.ts';
import { type Applied, applySnapshots, type Snapshots } from './apply-snapshots.ts';
import { afterApplied } from './billing-effects.ts';
import { undoDuplicateOrder } from './duplicate-orders.ts';

/**
 * Takes a gateway's events (a verified webhook): each is stored with its outcome and applied
 * once. A replay of an applied or ignored event changes nothing; one that failed before is
 * tried again. A failure is stored, then thrown, so the webhook answers 5xx and the gateway
 * sends it again.
 */
export async function receiveEvents(
  app: App,
  gateway: PaymentGateway,
  events: readonly GatewayEvent[],
): Promise<void> {
  for (const event of events) {
    let applied: Applied | null;
    try {
      applied = await app.db.transaction(async (tx) => {
        const [stored] = await tx
          .insert(gatewayEvents)
          .values({
            gateway: gateway.name,
            eventRef: event.ref,
            type: event.type,
            payload: event.payload as object,
          })
          .onConflictDoNothing()
          .returning({ id: gatewayEvents.id });
        if (!stored) {
          const [seen] = await tx
            .select()
            .from(gatewayEvents)
            .where(
              and(eq(gatewayEvents.gateway, gateway.name), eq(gatewayEvents.eventRef, event.ref)),
            )
            .for('update');
          if (seen?.outcome !== 'failed') return null;
        }
        const result = await applySnapshots(
          tx,
          {
            gateway: gateway.name,
            now: app.payments.clock.now(),
            graceDays: app.config.billing.graceDays,
          },
          event,
        );
        const nothing =
          !result.subscription && !result.invoice && !result.refundCreated && !result.cardsChanged;
        await tx
          .update(gatewayEvents)
          .set({
            outcome: nothing && result.ignored.length > 0 ? 'ignored' : 'applied',
            error: result.ignored.join('; ') || null,
            processedAt: new Date(),
          })
          .where(
            and(eq(gatewayEvents.gateway, gateway.name), eq(gatewayEvents.eventRef, event.ref)),
          );
        return result;
      });
    } catch (error) {
      await recordFailure(app, gateway, event, error);
      throw error;
    }
    if (applied) await followUp(app, applied);
  }
}

/** What follows a committed change: its effects, then the guard against a double order. */
async function followUp(app: App, applied: Applied): Promise<void> {
  await afterApplied(app, applied);
  try {
    await undoDuplicateOrder(app, applied, (name, snapshots) => {
      const gateway = app.payments.get(name);
      return gateway ? applyAnswer(app, gateway, snapshots as Snapshots) : Promise.resolve();
    });
  } catch (error) {
    app.log.error({ err: error }, 'the duplicate-order check failed');
  }
}

async function recordFailure(
  app: App,
  gateway: PaymentGateway,
  event: GatewayEvent,
  error: unknown,
) {
  const message = error instanceof Error ? error.message : String(error);
  app.log.error({ err: error, gateway: gateway.name, event: event.ref }, 'gateway event failed');
  await app.db
    .insert(gatewayEvents)
    .values({
      gateway: gateway.name,
      eventRef: event.ref,
      type: event.type,
      payload: event.payload as object,
      outcome: 'failed',
      error: message,
      processedAt: new Date(),
    })
    .onConflictDoUpdate({
      target: [gatewayEvents.gateway, gatewayEvents.eventRef],
      set: { outcome: 'failed', error: message, processedAt: new Date() },
    })
    .catch((failure: unknown) =>
      app.log.error({ err: failure }, 'could not record the failed event'),
    );
}

/** Applies what a gateway answered our own call with, as a webhook would. */
export async function applyAnswer(
  app: App,
  gateway: PaymentGateway,
  snapshots: Omit<GatewayEvent, 'ref' | 'type' | 'occurredAt' | 'payload'>,
): Promise<Applied> {
  const applied = await app.db.transaction((tx) =>
    applySnapshots(
      tx,
      {
        gateway: gateway.name,
        now: app.payments.clock.now(),
        graceDays: app.config.billing.graceDays,
      },
      snapshots,
    ),
  );
  await followUp(app, applied);
  return applied;
}

/** Reads a subscription back from its gateway and applies it: its state as of after our call. */
export async function readBackSubscription(
  app: App,
  gateway: PaymentGateway,
  subscriptionRef: string,
): Promise<void> {
  const fresh = await gateway.fetchSubscription(subscriptionRef);
  if (fresh) await applyAnswer(app, gateway, { subscription: fresh });
}
