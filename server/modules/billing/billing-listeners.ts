import type { App } from '../../http/types.ts';
import type { Applied } from './apply-snapshots.ts';

/**
 * What other domains do once a billing change is committed (DESIGN: a paid invoice earns a
 * referral's bonus days, an owner's plan carries the family's seats). Billing knows none of
 * them: each registers here when the app starts. A listener runs after the commit, so it must
 * be safe to run again (a sweep of its own catches what a crash between the two missed).
 */
export type BillingListener = (app: App, applied: Applied) => Promise<void>;

const listeners = new WeakMap<App, BillingListener[]>();

export function onBillingApplied(app: App, listener: BillingListener): void {
  listeners.set(app, [...(listeners.get(app) ?? []), listener]);
}

/** Calls each listener in turn; one that fails is logged and does not stop the others. */
export async function notifyBillingListeners(app: App, applied: Applied): Promise<void> {
  for (const listener of listeners.get(app) ?? []) {
    try {
      await listener(app, applied);
    } catch (error) {
      app.log.error({ err: error }, 'a billing listener failed');
    }
  }
}
