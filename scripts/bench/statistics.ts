import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { type DatabaseHandle, openDatabase } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { seedDemoCatalog } from '#server/modules/billing/demo-catalog.ts';
import { adminUrl, withDatabaseName } from '#server/test/postgres-urls.ts';
import { signedInUser } from '#server/test/test-sessions.ts';
import { statisticsEndpoints as e } from '#shared/contracts/admin/statistics.ts';
import { authEndpoints } from '#shared/contracts/auth.ts';
import type { Endpoint } from '#shared/contracts/endpoint.ts';
import { describeMachine } from './report.ts';
import { generateBooks } from './statistics-books.ts';

// Issue 13 §9: every statistics call answers in under 200 ms p95 on PostgreSQL with a million
// invoices. Makes a database of its own on the server of BENCH_DATABASE_URL (or
// TEST_DATABASE_URL), migrates it, writes the million invoices with their subscriptions,
// payments and refunds (statistics-books.ts; the rollups' triggers run as in production),
// then calls each statistics endpoint through the real app (app.inject: routing, session,
// permission, validation, serialization) many times over ranges of 30 days, 12 months and 3
// years ending on varied days, one call at a time, and reports p50 and p95 per call and range.
// The ratio is against a baseline in the same process: the same admin's who-am-I call
// (get-auth-user: a session lookup and a presenter), so it says what the statistics cost over
// the cheapest authenticated answer on this machine. The database is dropped at the end.
//
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres \
//     node --import tsx scripts/bench/statistics.ts
//
// It runs on its own rather than among run.ts's scenarios: those load a server process with
// autocannon against one shared database, while this one needs a database of its own with a
// million invoices, minutes to write, and times single calls in the app's own process.
//
// BENCH_STATISTICS_CALLS sets the calls per endpoint and range (default 60);
// BENCH_KEEP_DATABASE=1 keeps the database for a look afterwards.

const TARGET_P95_MS = 200;
const RESULTS = fileURLToPath(new URL('../../bench-results/statistics.json', import.meta.url));

const RANGES = { '30 days': 30, '12 months': 365, '3 years': 1099 } as const;
type RangeName = keyof typeof RANGES;

interface Figures {
  call: string;
  range: string;
  calls: number;
  p50: number;
  p95: number;
  max: number;
  /** p95 over the baseline's p95. */
  ratio: number | null;
}

function log(message: string) {
  process.stderr.write(`bench statistics: ${message}\n`);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** A small seeded generator: the same ranges on every run. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function main(): Promise<boolean> {
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('set BENCH_DATABASE_URL (a PostgreSQL server) to run this bench');
  const calls = Number(process.env.BENCH_STATISTICS_CALLS ?? 60);
  const name = `bench_statistics_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl(serverUrl) });
  await admin.connect();
  await admin.query(`create database ${name}`);
  log(`database ${name} made`);
  let database: DatabaseHandle | undefined;
  try {
    database = await openDatabase({ url: withDatabaseName(serverUrl, name) });
    await migrateDatabase(database);
    await seedDemoCatalog(database.db);
    if (database.driver !== 'postgres') throw new Error('not PostgreSQL');

    const client = await database.pool.connect();
    const books = await generateBooks(client, log).finally(() => client.release());
    log(
      `${books.invoices.toLocaleString('en')} invoices, ${books.subscriptions.toLocaleString('en')} ` +
        `subscriptions, ${books.payments.toLocaleString('en')} payments, ` +
        `${books.refunds.toLocaleString('en')} refunds in ${books.seconds.total?.toFixed(1)} s`,
    );

    const app = await buildApp(testConfig(), { database, jobs: [] });
    await app.ready();
    try {
      const session = await signedInUser(app, { role: 'ADMIN' });
      const headers = { cookie: session.cookie, 'x-requested-with': 'fetch' };
      const time = async (endpoint: Endpoint, query?: Record<string, string>) => {
        const url = `${endpoint.url}${query ? `?${new URLSearchParams(query)}` : ''}`;
        const started = performance.now();
        const answer = await app.inject({ method: endpoint.method, url, headers });
        const ms = performance.now() - started;
        if (answer.statusCode !== 200) {
          throw new Error(
            `${endpoint.method} ${url} answered ${answer.statusCode}: ${answer.body}`,
          );
        }
        return ms;
      };

      const baselineTimes: number[] = [];
      for (let i = 0; i < calls * 3 + 20; i++) {
        const ms = await time(authEndpoints.getStaffUser);
        if (i >= 20) baselineTimes.push(ms);
      }
      baselineTimes.sort((a, b) => a - b);
      const baseline = {
        call: 'baseline: get-auth-user (staff)',
        range: '-',
        calls: baselineTimes.length,
        p50: percentile(baselineTimes, 50),
        p95: percentile(baselineTimes, 95),
        max: baselineTimes.at(-1) ?? 0,
        ratio: 1,
      };

      const subjects: [string, Endpoint, Record<string, string>][] = [
        ['earnings by day', e.earnings, { granularity: 'day' }],
        ['earnings by month', e.earnings, { granularity: 'month' }],
        ['stat-by-country', e.byCountry, {}],
        ['mrr', e.mrr, {}],
        ['subscriptions', e.subscriptions, {}],
      ];
      const random = seeded(7);
      const today = Date.now();
      const figures: Figures[] = [baseline];
      for (const [label, endpoint, extra] of subjects) {
        const all: number[] = [];
        for (const [range, days] of Object.entries(RANGES) as [RangeName, number][]) {
          const times: number[] = [];
          // A few unmeasured first, then ranges ending anywhere in the books' three years
          // (the longest within the last two months, so it holds this month too).
          for (let i = 0; i < calls + 3; i++) {
            const span = days === 1099 ? 60 : 1100 - days;
            const to = today - Math.floor(random() * span) * 86_400_000;
            const from = to - (days - 1) * 86_400_000;
            const ms = await time(endpoint, { from: isoDay(from), to: isoDay(to), ...extra });
            if (i >= 3) times.push(ms);
          }
          times.sort((a, b) => a - b);
          all.push(...times);
          const p95 = percentile(times, 95);
          figures.push({
            call: label,
            range,
            calls: times.length,
            p50: percentile(times, 50),
            p95,
            max: times.at(-1) ?? 0,
            ratio: baseline.p95 > 0 ? p95 / baseline.p95 : null,
          });
        }
        all.sort((a, b) => a - b);
        figures.push({
          call: label,
          range: 'all',
          calls: all.length,
          p50: percentile(all, 50),
          p95: percentile(all, 95),
          max: all.at(-1) ?? 0,
          ratio: baseline.p95 > 0 ? percentile(all, 95) / baseline.p95 : null,
        });
      }

      process.stdout.write(`\n${formatTable(figures)}\n\n`);
      process.stdout.write(
        `data: ${books.invoices.toLocaleString('en')} invoices, ` +
          `${books.subscriptions.toLocaleString('en')} subscriptions, ` +
          `${books.payments.toLocaleString('en')} payments, ${books.refunds.toLocaleString('en')} ` +
          `refunds, generated in ${books.seconds.total?.toFixed(1)} s (${Object.entries(
            books.seconds,
          )
            .filter(([kind]) => kind !== 'total')
            .map(([kind, s]) => `${kind} ${s.toFixed(1)} s`)
            .join(', ')})\n` +
          `ratio: p95 over the baseline's p95 (${baseline.p95.toFixed(2)} ms), in this process\n`,
      );
      const slow = figures.filter((row) => row.p95 >= TARGET_P95_MS);
      await mkdir(new URL('../../bench-results/', import.meta.url), { recursive: true });
      await writeFile(
        RESULTS,
        `${JSON.stringify(
          {
            startedAt: new Date(today).toISOString(),
            machine: describeMachine(),
            targetP95Ms: TARGET_P95_MS,
            books,
            figures,
          },
          null,
          2,
        )}\n`,
      );
      log(`wrote ${RESULTS}`);
      for (const row of slow)
        log(`SLOW ${row.call} over ${row.range}: p95 ${row.p95.toFixed(1)} ms`);
      return slow.length === 0;
    } finally {
      await app.close();
    }
  } finally {
    await database?.close();
    if (process.env.BENCH_KEEP_DATABASE === '1') log(`kept database ${name}`);
    else await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function formatTable(rows: Figures[]): string {
  const header = ['call', 'range', 'calls', 'p50 ms', 'p95 ms', 'max ms', 'p95 ratio'];
  const cells = rows.map((row) => [
    row.call,
    row.range,
    String(row.calls),
    row.p50.toFixed(1),
    row.p95.toFixed(1),
    row.max.toFixed(1),
    row.ratio === null ? '-' : row.ratio.toFixed(1),
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((row) => row[i]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}
// Exit explicitly: a lingering socket or timer must not keep the run alive.
process.exit(ok ? 0 : 1);
