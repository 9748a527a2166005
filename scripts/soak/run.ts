import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '#server/test/server-process.ts';
import { startTestSmtp } from '#server/test/test-smtp.ts';
import { authEndpoints } from '#shared/contracts/auth.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { seedFleet } from '../bench/fleet-seed.ts';
import { buyers, newLedger, nodeReports, PASSWORD, signUp } from '../chaos/actors.ts';
import { type Customer, openTabs } from '../chaos/sockets.ts';
import { figures, Traffic } from '../chaos/traffic.ts';
import { startCluster } from '../cluster/cluster.ts';
import type { ManagedProcess } from '../cluster/processes.ts';
import { lineChart } from './chart.ts';

// `npm run soak` (not in CI): the cluster under mixed load for SOAK_MINUTES (30 by default)
// at 70 % of the rate it was measured to carry first. The mix: reads, sign-ins and sign-ups
// at that rate, and all along a buyer ordering on the sandbox, four VPN nodes reporting
// every second and four websocket tabs (pusher-js) held open. Every minute it prints each
// app process's memory and open files, the minute's p99 and the tabs connected; at the end
// it writes a report with charts to bench-results/ and says whether they stayed flat and
// every tab stayed connected (exit 1 if not).

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const SHARE = 0.7;
const CAPACITY_SECONDS = 20;
const RESULTS = fileURLToPath(new URL('../../bench-results/', import.meta.url));

interface Minute {
  minute: number;
  rssMb: number[];
  openFiles: number[];
  requests: number;
  failed: number;
  p99Ms: number;
  tabsJoined: number;
}

function log(line: string): void {
  process.stdout.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

/** Resident memory (MB) and open file descriptors of a running process, from /proc. */
function processFigures(app: ManagedProcess): { rssMb: number; openFiles: number } {
  const pid = app.pid();
  if (!pid) return { rssMb: 0, openFiles: 0 };
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(rssKb / 1024), openFiles: readdirSync(`/proc/${pid}/fd`).length };
}

/** One request of the mix, chosen by weight: mostly reads, some sign-ins and sign-ups. */
function mixedRequest(traffic: Traffic, cookies: readonly string[], emails: readonly string[]) {
  let n = 0;
  return async () => {
    n += 1;
    const pick = n % 20;
    const cookie = cookies[n % cookies.length] ?? '';
    if (pick < 10) {
      await traffic.call('read', 'POST', authEndpoints.getAuthUser.url, { cookie });
    } else if (pick < 16) {
      await traffic.call(
        'read',
        'GET',
        `${billingEndpoints.products.url}?service_id=1&currency=USD`,
      );
    } else if (pick < 19) {
      await traffic.call('sign-in', 'POST', authEndpoints.signIn.url, {
        body: { email: emails[n % emails.length], password: PASSWORD },
      });
    } else {
      await signUp(traffic, `soak-${Date.now().toString(36)}-${n}@example.com`);
    }
  };
}

/** As many requests as `concurrency` callers manage back to back, per second. */
async function capacity(request: () => Promise<void>, seconds: number): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1_000;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < end) {
        await request();
        done += 1;
      }
    }),
  );
  return done / seconds;
}

/** Sends at `rate` per second whatever the answers' pace (an open loop), until `stop`. */
async function openLoop(request: () => Promise<void>, rate: number, stop: AbortSignal) {
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let sent = 0;
  while (!stop.aborted) {
    const due = started + (sent / rate) * 1_000;
    const wait = due - performance.now();
    if (wait > 0) await sleep(Math.min(wait, 50));
    else {
      sent += 1;
      const call = request().finally(() => inFlight.delete(call));
      inFlight.add(call);
    }
  }
  await Promise.allSettled([...inFlight]);
}

/** Flat: the last third's mean within `tolerance` of the second third's. */
function flat(values: readonly number[], tolerance: number): boolean {
  const third = Math.max(1, Math.floor(values.length / 3));
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const middle = mean(values.slice(third, 2 * third));
  const last = mean(values.slice(-third));
  return middle === 0 || last <= middle * (1 + tolerance);
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  const catcher = await startTestSmtp();
  const cluster = await startCluster({
    dir,
    ports: {
      balancer: await freePort(),
      apps: [await freePort(), await freePort()],
      postgres: await freePort(),
      redis: await freePort(),
    },
    env: { SMTP_URL: catcher.url, LOG_LEVEL: 'warn' },
  });
  try {
    const traffic = new Traffic(cluster.url);
    const emails: string[] = [];
    const cookies: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const email = `soak-regular-${Date.now().toString(36)}-${i}@example.com`;
      const { cookie } = await signUp(traffic, email);
      emails.push(email);
      if (cookie) cookies.push(cookie);
    }
    const request = mixedRequest(traffic, cookies, emails);

    // What runs all along, at its own pace: measured with the rest, so 70 % is of what is left.
    const background = new AbortController();
    const customers: Customer[] = [];
    for (let i = 0; i < 2; i += 1) {
      const email = `soak-tabs-${Date.now().toString(36)}-${i}@example.com`;
      const { cookie } = await signUp(traffic, email);
      if (!cookie) throw new Error('a tab customer could not sign up');
      const at = [
        { label: 'app1', url: cluster.appUrls[0] },
        { label: 'balancer', url: cluster.url },
      ];
      customers.push(await openTabs(traffic, { email, cookie }, at));
    }
    const tabs = customers.flatMap((customer) => customer.tabs);
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const monthly = await db.query<{ id: number }>(
      "select id from products where currency = 'USD' and service_id = 1 and name = '1 month' and not additional",
    );
    const plan = monthly.rows[0]?.id;
    if (!plan) throw new Error('no demo plan (is SEED_DEMO on?)');
    const fleet = await seedFleet(db, { nodes: 4, peersPerNode: 6 }, 'sid').finally(() => db.end());
    const ledger = newLedger();
    const actors = [
      buyers(traffic, ledger, plan, background.signal),
      ...fleet.nodes.map((node) => {
        const own = { serverId: node.serverId, sent: new Map(), pending: [], seq: 0 };
        return nodeReports(traffic, own, node.token, background.signal);
      }),
    ];

    log(`measuring capacity for ${CAPACITY_SECONDS} s …`);
    const measured = await capacity(request, CAPACITY_SECONDS);
    const rate = Math.max(1, Math.round(measured * SHARE));
    log(`capacity ${measured.toFixed(0)} requests/s; soaking at ${rate}/s for ${MINUTES} min`);
    // The work the measurement left behind (mail, jobs) drains before the soak starts.
    await sleep(15_000);
    catcher.clear();
    traffic.samples.length = 0;

    const stop = new AbortController();
    const load = openLoop(request, rate, stop.signal);
    const minutes: Minute[] = [];
    for (let minute = 1; minute <= MINUTES; minute += 1) {
      const from = performance.now();
      await sleep(60_000);
      // Received mail is dropped as it comes: the catcher is not what is being measured.
      catcher.clear();
      const window = figures(traffic.samples, from, performance.now());
      traffic.samples.length = 0;
      const apps = cluster.apps.map(processFigures);
      const row: Minute = {
        minute,
        rssMb: apps.map((a) => a.rssMb),
        openFiles: apps.map((a) => a.openFiles),
        requests: window.requests,
        failed: window.failed,
        p99Ms: window.p99Ms,
        tabsJoined: tabs.filter((tab) => tab.joined).length,
      };
      minutes.push(row);
      log(
        `minute ${minute}: ${row.requests} requests, ${row.failed} failed, p99 ${row.p99Ms} ms; memory ${row.rssMb.join(' / ')} MB; open files ${row.openFiles.join(' / ')}; tabs ${row.tabsJoined}/${tabs.length}`,
      );
    }
    stop.abort();
    background.abort();
    await Promise.all([load, ...actors]);
    for (const tab of tabs) tab.close();

    const memory = minutes.map((m) => Math.max(...m.rssMb));
    const files = minutes.map((m) => Math.max(...m.openFiles));
    const p99 = minutes.map((m) => m.p99Ms);
    const verdicts = {
      memory: flat(memory, 0.1),
      openFiles: flat(files, 0.1),
      p99: flat(p99, 0.5),
      tabs: minutes.every((m) => m.tabsJoined === tabs.length),
    };
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    mkdirSync(RESULTS, { recursive: true });
    const chart = lineChart([
      { name: 'memory of the larger process (MB)', values: memory },
      { name: 'open files of the busier process', values: files },
      { name: 'p99 (ms)', values: p99 },
    ]);
    writeFileSync(join(RESULTS, `soak-${stamp}.svg`), chart);
    writeFileSync(
      join(RESULTS, `soak-${stamp}.json`),
      JSON.stringify({ capacity: measured, rate, minutes, verdicts }, null, 2),
    );
    log(`report: bench-results/soak-${stamp}.{json,svg}`);
    log(
      `flat? memory ${verdicts.memory ? 'yes' : 'NO'}, open files ${verdicts.openFiles ? 'yes' : 'NO'}, p99 ${verdicts.p99 ? 'yes' : 'NO'}; tabs connected all along ${verdicts.tabs ? 'yes' : 'NO'}`,
    );
    return Object.values(verdicts).every(Boolean) ? 0 : 1;
  } finally {
    await cluster.stop();
    await catcher.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `soak failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
