import { randomUUID } from 'node:crypto';
import { cpuTimeUs, type Measurement } from './measure.ts';
import type { CustomMeasureContext } from './scenarios.ts';

// Checkout on the sandbox gateway: each order is a new customer buying the monthly plan with
// a fresh card token, as the order page sends it (sign-ups and tokens are made beforehand
// and not measured). A buyer can order once, so this runs a fixed number of orders rather
// than a fixed time, BENCH_CONCURRENCY at a time.

const PASSWORD = 'Bench#2024password';
const CARD = {
  number: '4242424242424242',
  exp_month: 12,
  exp_year: 2034,
  cvc: '123',
  name: 'Bench',
};

interface Buyer {
  cookie: string;
  token: string;
}

const address = (index: number) => `10.251.${(index >> 8) & 255}.${index & 255}`;

async function post(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'fetch', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

async function makeBuyer(baseUrl: string, index: number): Promise<Buyer> {
  const email = `bench-buyer-${Date.now().toString(36)}-${index}@example.com`;
  const from = { 'x-forwarded-for': address(index) };
  const signUp = await post(
    baseUrl,
    '/api/public/v1/auth/sign-up',
    { email, password: PASSWORD, password_confirmation: PASSWORD },
    from,
  );
  const cookie = signUp.headers.get('set-cookie')?.split(';')[0];
  if (!signUp.ok || !cookie) throw new Error(`bench sign-up answered ${signUp.status}`);
  const tokenized = await post(baseUrl, '/sandbox/v1/tokens', CARD, from);
  if (!tokenized.ok) throw new Error(`bench tokenize answered ${tokenized.status}`);
  const { id } = (await tokenized.json()) as { id: string };
  return { cookie, token: id };
}

async function inTurns<T>(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function measureCheckout(context: CustomMeasureContext): Promise<Measurement> {
  const { baseUrl, pid, scenario } = context;
  const orders = Number(process.env.BENCH_CHECKOUTS ?? 120);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
  const catalog = (await (
    await fetch(new URL('/api/public/v1/billing/products?currency=USD&service_id=1', baseUrl))
  ).json()) as {
    items: { product_id: number; additional: boolean }[];
  };
  const plan = catalog.items.find((item) => !item.additional);
  if (!plan) throw new Error('the bench server sells no plan');
  const buyers = await inTurns(orders, 4, (index) => makeBuyer(baseUrl, index));

  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  const cpuBefore = await cpuTimeUs(pid);
  const started = performance.now();
  await inTurns(orders, concurrency, async (index) => {
    const buyer = buyers[index] as Buyer;
    const at = performance.now();
    const answer = await post(
      baseUrl,
      scenario.path,
      {
        product_id: plan.product_id,
        payment: { service_id: 1, token: buyer.token },
        idempotency_key: randomUUID(),
      },
      { cookie: buyer.cookie },
    );
    await answer.arrayBuffer();
    latencies.push(performance.now() - at);
    statusCounts[answer.status] = (statusCounts[answer.status] ?? 0) + 1;
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await cpuTimeUs(pid);
  latencies.sort((a, b) => a - b);
  const failed = Object.entries(statusCounts).filter(([status]) => status !== '200');
  return {
    name: scenario.name,
    server: scenario.server,
    method: 'POST',
    path: scenario.path,
    rps: orders / seconds,
    rpsStddev: 0,
    latencyMs: {
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      average: latencies.reduce((sum, value) => sum + value, 0) / Math.max(latencies.length, 1),
      max: latencies.at(-1) ?? 0,
    },
    requests: orders,
    ...(cpuBefore !== undefined && cpuAfter !== undefined
      ? { cpuUsPerRequest: (cpuAfter - cpuBefore) / orders }
      : {}),
    errors: 0,
    timeouts: 0,
    statusCounts,
    problems: failed.map(([status, count]) => `${count} orders answered ${status}`),
  };
}
