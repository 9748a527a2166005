import type { App } from '../../http/types.ts';
import { purgeDeletedAccounts } from '../account/account-purge.ts';
import { runContentClock } from '../content/content-clock.ts';
import { sweepDataExports } from '../data-export/data-export-sweep.ts';
import { fleetSweep } from '../vpn/fleet-sweep.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Work the server does on its own, on a timer (jobs-plugin.ts). */
export interface ScheduledJob {
  name: string;
  /** The wait after start-up before the first run. */
  firstRunMs: number;
  /** The wait between runs. */
  everyMs: number;
  run(app: App): Promise<unknown>;
}

export const SCHEDULED_JOBS: readonly ScheduledJob[] = [
  {
    // §4: a deactivated account is deleted once its delete date passes. Hourly is prompt
    // enough against a 30-day grace period; the first run waits a minute so a start-up (or
    // a short-lived test app) is not slowed, yet a process restarted often still runs it.
    name: 'purge-deleted-accounts',
    firstRunMs: MINUTE,
    everyMs: HOUR,
    run: purgeDeletedAccounts,
  },
  {
    // Data exports (data-export-sweep.ts): a link's day is over, or it was used; the file
    // goes. Every 10 minutes keeps an expired export's file at most that long past its day.
    name: 'data-export-sweep',
    firstRunMs: 2 * MINUTE,
    everyMs: 10 * MINUTE,
    run: sweepDataExports,
  },
  {
    // The VPN fleet (fleet-sweep.ts): a silent node is offline after a minute, and a person
    // whose access ended leaves every node within one; every 10 s keeps both well inside.
    name: 'vpn-fleet-sweep',
    firstRunMs: 5_000,
    everyMs: 10_000,
    run: fleetSweep,
  },
  {
    // Content (content-clock.ts): scheduled translations go public, ended ones private.
    name: 'content-clock',
    firstRunMs: 10_000,
    everyMs: 30_000,
    run: async (app) => {
      const changed = await runContentClock(app.db);
      for (const id of changed.items) app.contentChanges.emit({ type: 'item', id, kinds: [] });
    },
  },
];
