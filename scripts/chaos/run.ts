import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '#server/test/server-process.ts';
import { startTestSmtp } from '#server/test/test-smtp.ts';
import { authEndpoints } from '#shared/contracts/auth.ts';
import { seedFleet } from '../bench/fleet-seed.ts';
import { startCluster } from '../cluster/cluster.ts';
import {
  buyers,
  type Ledger,
  lists,
  newLedger,
  nodeReports,
  PASSWORD,
  signIns,
  signUp,
  signUps,
} from './actors.ts';
import {
  type Check,
  chargedOnce,
  mailOnce,
  usageKept,
  webhooksOnce,
  writesKept,
} from './checks.ts';
import { startFaultySmtp } from './faulty-smtp.ts';
import { type Customer, openTabs, sendMarker, type Tab } from './sockets.ts';
import { figures, Traffic } from './traffic.ts';
import { webhookBurst } from './webhook-burst.ts';

// `npm run chaos`: the cluster (two app processes behind HAProxy on PostgreSQL and Redis)
// under mixed load — sign-ups and sign-ins, sandbox orders, reads, websocket tabs, VPN node
// reports — while faults come one after another: an app process killed, PostgreSQL
// restarted, a failing mail server, a burst of webhooks, a process drained by SIGTERM.
// Then it checks what was promised and prints it as a table; exit 1 if a promise broke.

interface Phase {
  name: string;
  from: number;
  to: number;
}

const HEAR_WITHIN_MS = 10_000;

/** A change sent after a fault, which every tab of its customer that was joined must hear. */
interface Marker {
  name: string;
  sentAt: number;
  status: number;
  /** The customer's tabs joined to the channel when it was sent. */
  tabs: Tab[];
}

function log(line: string): void {
  process.stdout.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

async function until(what: string, test: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test().catch(() => false)) return true;
    await sleep(500);
  }
  log(`gave up waiting: ${what}`);
  return false;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'chaos-'));
  const catcher = await startTestSmtp();
  const smtp = await startFaultySmtp(catcher.url);
  const ports = {
    balancer: await freePort(),
    apps: [await freePort(), await freePort()] as const,
    postgres: await freePort(),
    redis: await freePort(),
  };
  log(`starting the cluster in ${dir}`);
  const cluster = await startCluster({
    dir,
    ports,
    env: {
      SMTP_URL: smtp.url,
      // Per-address limits are the balancer's client addresses here (many); the account
      // limits stay as they are.
      LOG_LEVEL: 'warn',
    },
  });
  // A pool: PostgreSQL restarts during the run, and the checks at the end need a connection.
  // Interrupted (Ctrl-C, CI's timeout): the cluster's processes must not outlive the run.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping the cluster`);
      void cluster.stop().finally(() => process.exit(130));
    });
  }
  const db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 3 });
  db.on('error', () => {});
  const checks: Check[] = [];
  const phases: Phase[] = [];
  const stop = new AbortController();
  const traffic = new Traffic(cluster.url);
  const ledger: Ledger = newLedger();
  const customers: Customer[] = [];
  const markers: Marker[] = [];
  try {
    // ——— Set-up: people, tabs, nodes ———
    const plan = await db.query<{ id: number }>(
      "select id from products where currency = 'USD' and service_id = 1 and name = '1 month' and not additional",
    );
    const productId = plan.rows[0]?.id;
    if (!productId) throw new Error('no demo plan (is SEED_DEMO on?)');
    const regulars: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const email = `chaos-${ledger.run}-regular${i}@example.com`;
      const { status } = await signUp(traffic, email);
      ledger.signUps.push({ email, status });
      regulars.push(email);
    }
    const tabsAt = [
      { label: 'app1', url: cluster.appUrls[0] },
      { label: 'app2', url: cluster.appUrls[1] },
      { label: 'balancer', url: cluster.url },
    ];
    for (let i = 0; i < 2; i += 1) {
      const email = `chaos-${ledger.run}-tabs${i}@example.com`;
      const { status, cookie } = await signUp(traffic, email);
      ledger.signUps.push({ email, status });
      if (!cookie) throw new Error(`sign-up answered ${status}`);
      customers.push(await openTabs(traffic, { email, cookie }, tabsAt));
    }
    const seeder = new pg.Client({ connectionString: cluster.databaseUrl });
    await seeder.connect();
    const fleet = await seedFleet(seeder, { nodes: 6, peersPerNode: 6 }, 'sid').finally(() =>
      seeder.end(),
    );
    ledger.nodes = fleet.nodes.map((node) => ({
      serverId: node.serverId,
      sent: new Map(),
      pending: [],
      seq: 0,
    }));
    const everyTabJoined = () =>
      Promise.resolve(customers.every((c) => c.tabs.every((tab) => tab.connects > 0)));
    await until('every tab connected', everyTabJoined, 30_000);

    // ——— Across processes (no fault yet) ———
    checks.push(...(await acrossProcesses(cluster.appUrls, customers, regulars)));

    // ——— Load ———
    const lookerCookie = customers[0]?.cookie ?? '';
    const actors = [
      signUps(traffic, ledger, stop.signal),
      signIns(traffic, ledger, regulars, stop.signal),
      signIns(traffic, ledger, regulars, stop.signal),
      buyers(traffic, ledger, productId, stop.signal),
      buyers(traffic, ledger, productId, stop.signal),
      lists(traffic, lookerCookie, stop.signal),
      lists(traffic, lookerCookie, stop.signal),
      ...fleet.nodes.map((node, i) => {
        const ledgerNode = ledger.nodes[i];
        return ledgerNode ? nodeReports(traffic, ledgerNode, node.token, stop.signal) : null;
      }),
    ];
    const marker = async (label: string) => {
      for (const customer of customers) {
        const name = `m${markers.length + 1}-${label}`;
        const tabs = customer.tabs.filter((tab) => tab.joined);
        const sentAt = performance.now();
        const status = await sendMarker(traffic, customer, name);
        markers.push({ name, sentAt, status, tabs });
      }
    };
    const phase = async (name: string, work: () => Promise<void>) => {
      const from = performance.now();
      log(name);
      await work();
      phases.push({ name, from, to: performance.now() });
    };

    await phase('no fault (baseline)', () => sleep(15_000));
    await phase('app1 killed (SIGKILL), then started again', async () => {
      await cluster.apps[0].stop('SIGKILL');
      await sleep(3_000);
      await cluster.apps[0].start();
      await sleep(5_000);
    });
    await marker('after-kill');
    await phase('PostgreSQL restarted', async () => {
      await cluster.postgres.restart();
      await sleep(10_000);
    });
    await marker('after-postgres');
    await phase('mail server failing (drops, 421, 451, 10 s stalls)', async () => {
      smtp.setFaultRate(0.6);
      await sleep(30_000);
      smtp.setFaultRate(0);
    });
    await marker('after-smtp');
    let burst: Awaited<ReturnType<typeof webhookBurst>> | undefined;
    await phase('2,000 sandbox webhooks in 10 s (a third repeated, shuffled)', async () => {
      burst = await webhookBurst(traffic, db, cluster.sandboxWebhookSecret, {
        total: 2_000,
        seconds: 10,
        concurrency: 40,
        run: ledger.run,
      });
    });
    let drain: Check | undefined;
    await phase('app2 drained (SIGTERM), then started again', async () => {
      drain = await drainCheck(cluster, traffic);
      await cluster.apps[1].start();
      await sleep(5_000);
    });
    await marker('after-drain');
    // Every tab back on its channel, then one more change that all of them must hear.
    const allJoined = () => Promise.resolve(customers.every((c) => c.tabs.every((t) => t.joined)));
    const rejoined = await until('every tab joined again', allJoined, 60_000);
    await marker('final');
    await sleep(HEAR_WITHIN_MS);

    // ——— Settle: load off, queues empty ———
    log('load stops; waiting for mail and webhooks to settle');
    stop.abort();
    await Promise.all(actors);
    await until(
      'mail delivered',
      async () =>
        (
          await db.query(
            "select 1 from mail_outbox where status in ('outbox', 'retrying') and to_address like $1 limit 1",
            [`chaos-${ledger.run}-%`],
          )
        ).rowCount === 0,
      180_000,
    );
    await until(
      'sandbox events delivered',
      async () =>
        (
          await db.query(
            "select 1 from sandbox_objects where kind = 'event' and data->>'deliveredAt' is null limit 1",
          )
        ).rowCount === 0,
      60_000,
    );

    // ——— Checks ———
    checks.push(await writesKept(db, ledger));
    checks.push(await chargedOnce(db, ledger));
    checks.push(await mailOnce(db, ledger, catcher));
    if (burst) checks.push(await webhooksOnce(db, burst, ledger));
    checks.push(await usageKept(db, ledger));
    checks.push(socketsCheck(customers, markers, rejoined));
    checks.push(crashCheck(cluster));
    if (drain) checks.push(drain);
    const signInAnswers = new Map<number, number>();
    for (const { status } of ledger.signIns) {
      signInAnswers.set(status, (signInAnswers.get(status) ?? 0) + 1);
    }
    log(`sign-ins by answer: ${[...signInAnswers].map(([s, n]) => `${n}×${s}`).join(' ')}`);
    log(`mail server faults dealt: ${JSON.stringify(smtp.counts)}`);

    printReport(traffic, phases, checks);
    return checks.every((check) => check.ok) ? 0 : 1;
  } finally {
    stop.abort();
    for (const customer of customers) for (const tab of customer.tabs) tab.close();
    await db.end().catch(() => {});
    await cluster.stop();
    await smtp.close();
    await catcher.close();
    if (!process.env.CHAOS_KEEP) rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir} (logs in ${cluster.logDir})`);
  }
}

/** Sessions, shared limits and live events, across the two processes, before any fault. */
async function acrossProcesses(
  appUrls: readonly [string, string],
  customers: readonly Customer[],
  regulars: readonly string[],
): Promise<Check[]> {
  const [one, two] = appUrls.map((url) => new Traffic(url)) as [Traffic, Traffic];
  const email = regulars[0] ?? '';
  const signedIn = await one.call('setup', 'POST', authEndpoints.signIn.url, {
    body: { email, password: PASSWORD },
  });
  const cookie = signedIn.headers.get('set-cookie')?.split(';')[0] ?? '';
  const there = await two.call('setup', 'POST', authEndpoints.getAuthUser.url, { cookie });
  // Wrong passwords for an account of its own (locked for 15 minutes after), alternating
  // processes: the account's limit is shared.
  const victim = email.replace('regular0', 'locked');
  await one.call('setup', 'POST', authEndpoints.signUp.url, {
    body: { email: victim, password: PASSWORD, password_confirmation: PASSWORD },
  });
  const statuses: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const answer = await (i % 2 === 0 ? one : two).call('setup', 'POST', authEndpoints.signIn.url, {
      body: { email: victim, password: 'not-the-password-1' },
    });
    statuses.push(answer.status);
  }
  // A change through process 1 is heard by the tab on process 2, and the other way round.
  const customer = customers[0];
  let heard = false;
  if (customer) {
    await sendMarker(one, customer, 'cross-1');
    await sendMarker(two, customer, 'cross-2');
    heard = await until(
      'cross-process events',
      () =>
        Promise.resolve(
          customer.tabs.every((tab) => tab.heard.has('cross-1') && tab.heard.has('cross-2')),
        ),
      HEAR_WITHIN_MS,
    );
  }
  return [
    {
      name: 'a session made on one process works on the other',
      ok: signedIn.status === 200 && there.status === 200,
      detail: `sign-in on app1 ${signedIn.status}, who-am-I on app2 ${there.status}`,
    },
    {
      name: 'rate limits count across processes',
      ok: statuses.includes(429) && statuses.indexOf(429) <= 5,
      detail: `wrong passwords alternating app1/app2: ${statuses.join(' ')}`,
    },
    {
      name: 'tabs on both processes hear changes made through either',
      ok: heard,
      detail: `${customer?.tabs.map((tab) => `${tab.label}: ${[...tab.heard.keys()].join(',')}`).join('; ')}`,
    },
  ];
}

/**
 * SIGTERM to app2 while requests keep coming: its /readyz must fail at once while it still
 * answers, the balancer must stop sending to it with nothing failed, and it exits 0.
 */
async function drainCheck(
  cluster: Awaited<ReturnType<typeof startCluster>>,
  traffic: Traffic,
): Promise<Check> {
  const app = cluster.apps[1];
  const direct = new Traffic(cluster.appUrls[1]);
  const sentAt = performance.now();
  const stopped = app.stop('SIGTERM');
  let readyFailedAt: number | undefined;
  const directStatuses = new Map<number, number>();
  let answeredWhileDraining = 0;
  while (app.running()) {
    const ready = await direct.call('drain', 'GET', '/readyz');
    if (ready.status === 503 && readyFailedAt === undefined) readyFailedAt = performance.now();
    const read = await direct.call('drain', 'POST', authEndpoints.getAuthUser.url);
    directStatuses.set(read.status, (directStatuses.get(read.status) ?? 0) + 1);
    if (readyFailedAt !== undefined && read.status === 401) answeredWhileDraining += 1;
    await sleep(100);
  }
  await stopped;
  const exit = app.lastExit();
  const window = figures(traffic.samples, sentAt, performance.now());
  const failedAfterMs = readyFailedAt === undefined ? Infinity : readyFailedAt - sentAt;
  return {
    name: 'SIGTERM drains: /readyz fails first, in-flight requests finish, exit 0',
    ok:
      failedAfterMs < 1_000 && answeredWhileDraining > 0 && window.failed === 0 && exit?.code === 0,
    detail: `/readyz 503 after ${Math.round(failedAfterMs)} ms; ${answeredWhileDraining} requests still answered while draining; through the balancer ${window.requests} requests, ${window.failed} failed; exit ${exit?.code ?? exit?.signal}`,
  };
}

function socketsCheck(
  customers: readonly Customer[],
  markers: readonly Marker[],
  rejoined: boolean,
): Check {
  const sent = markers.filter((m) => m.status === 200);
  let missed = 0;
  let owed = 0;
  for (const m of sent) {
    for (const tab of m.tabs) {
      owed += 1;
      const at = tab.heard.get(m.name);
      if (at === undefined || at - m.sentAt > HEAR_WITHIN_MS) missed += 1;
    }
  }
  const tabs = customers.flatMap((customer) => customer.tabs);
  const reconnected = tabs.filter((tab) => tab.connects > 1).length;
  return {
    name: 'websocket tabs reconnected and heard the events sent after',
    ok: missed === 0 && sent.length === markers.length && reconnected > 0 && rejoined,
    detail: `${tabs.length} tabs, ${reconnected} reconnected, all joined again: ${rejoined ? 'yes' : 'NO'}; ${sent.length}/${markers.length} events sent after faults, ${owed} deliveries owed to joined tabs, missed ${missed}`,
  };
}

function crashCheck(cluster: Awaited<ReturnType<typeof startCluster>>): Check {
  const unasked = cluster.apps.flatMap((app) =>
    app.exits
      .filter((exit) => !exit.asked)
      .map((exit) => `${app.name} ${exit.code ?? exit.signal}`),
  );
  return {
    name: 'no process crashed (a dropped database connection included)',
    ok: unasked.length === 0 && cluster.apps.every((app) => app.running()),
    detail: unasked.length === 0 ? 'every exit was one the suite asked for' : unasked.join(', '),
  };
}

function printReport(traffic: Traffic, phases: readonly Phase[], checks: readonly Check[]) {
  const rows = phases.map((phase) => {
    const f = figures(traffic.samples, phase.from, phase.to);
    return [
      phase.name,
      `${((phase.to - phase.from) / 1_000).toFixed(0)} s`,
      String(f.requests),
      String(f.failed),
      `${(f.errorRate * 100).toFixed(2)} %`,
      f.failed > 0 ? `${(f.failingForMs / 1_000).toFixed(1)} s` : '–',
      `${f.p99Ms} ms`,
    ];
  });
  // Why requests failed, phase by phase: the first few kinds, so a failure can be looked into.
  const failures = phases
    .map((phase) => ({ phase, f: figures(traffic.samples, phase.from, phase.to) }))
    .filter(({ f }) => f.firstFailures.length > 0)
    .map(({ phase, f }) => `\n${phase.name}:\n${f.firstFailures.map((w) => `  ${w}`).join('\n')}`)
    .join('');
  const table = (header: string[], body: string[][]) => {
    const widths = header.map((h, i) =>
      Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)),
    );
    const line = (cells: string[]) =>
      `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
    return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
  };
  process.stdout.write(
    `\nDuring each fault (requests through the balancer; failed = no answer or 5xx)\n\n${table(
      ['fault', 'length', 'requests', 'failed', 'error rate', 'failing until', 'p99'],
      rows,
    )}\n${failures}\n\nWhat was promised\n\n${table(
      ['', 'check', 'measured'],
      checks.map((check) => [check.ok ? 'ok' : 'FAILED', check.name, check.detail]),
    )}\n\n`,
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `chaos failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
