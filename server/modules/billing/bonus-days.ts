import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { type ProductRow, products, type UserRow } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { BonusGateway } from '../../platform/payments/bonus/bonus-gateway.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { type Applied, applySnapshots } from './apply-snapshots.ts';
import { afterApplied } from './billing-effects.ts';
import { customerRefFor, priceFor } from './gateway-refs.ts';
import { oneAtATime } from './idempotent.ts';

/** The one product bonus runs are of (service 5): made on first use, never on sale. */
async function bonusProduct(app: App): Promise<ProductRow> {
  const where = and(eq(products.serviceId, 5), eq(products.plan, 'bonus'));
  const [found] = await app.db.select().from(products).where(where).limit(1);
  if (found) return found;
  await app.db.insert(products).values({
    serviceId: 5,
    plan: 'bonus',
    name: 'Bonus days',
    description: 'Days of VPN access earned through the referral program or granted by staff.',
    amount: 0,
    currency: 'USD',
    interval: 'day',
    intervalCount: 1,
    visible: false,
  });
  const [made] = await app.db.select().from(products).where(where).limit(1);
  if (!made) throw new Error('the bonus product could not be made');
  return made;
}

export interface BonusDaysInput {
  days: number;
  /** On the zero invoice's line: "30 bonus days: referral of …". */
  description: string;
  /** Who granted them; null for the system (the referral program). */
  actorId: number | null;
}

/**
 * Grants bonus days (service 5) through the bonus gateway: the customer's bonus run is
 * extended (or a new one starts), a zero invoice records the grant, and the entitlement
 * ledger follows, as for any gateway; audited in the same transaction.
 */
export async function grantBonusDays(
  app: App,
  user: UserRow,
  input: BonusDaysInput,
): Promise<Applied> {
  const gateway = app.payments.get('bonus') as BonusGateway | undefined;
  if (!gateway) throw new Error('the bonus gateway is not registered');
  return oneAtATime(app, user.id, async () => {
    const product = await bonusProduct(app);
    const customerRef = await customerRefFor(app, gateway, user);
    const price = await priceFor(app, gateway, product);
    const snapshots = await gateway.grant({
      customerRef,
      priceRef: price.ref ?? `bonus-days-${product.id}`,
      productId: product.id,
      days: input.days,
      description: input.description,
      grantRef: randomUUID(),
    });
    const applied = await app.db.transaction(async (tx) => {
      const done = await applySnapshots(
        tx,
        {
          gateway: 'bonus',
          now: app.payments.clock.now(),
          graceDays: app.config.billing.graceDays,
        },
        snapshots,
      );
      await recordAudit(tx, null, {
        action: 'billing.bonus_days_granted',
        actorId: input.actorId,
        subjectType: 'user',
        subjectId: user.id,
        data: {
          days: input.days,
          subscription_id: done.subscription?.row.id ?? null,
          until: snapshots.subscription.currentPeriodEnd?.toISOString() ?? null,
        },
      });
      return done;
    });
    await afterApplied(app, applied);
    return applied;
  });
}
