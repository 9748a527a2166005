import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import type { App } from '../../http/types.ts';
import { referralsCount } from './referral-figures.ts';

/** The referrer's open pages fetch their figures again; a change stands if this fails. */
export async function announceReferral(app: App, referrerId: number): Promise<void> {
  try {
    await app.realtime.publish(systemEventsChannel(referrerId), REALTIME_EVENTS.referralUpdated, {
      referrals_count: await referralsCount(app.db, referrerId),
    });
  } catch (error) {
    app.log.warn({ err: error }, 'referral update could not be published');
  }
}
