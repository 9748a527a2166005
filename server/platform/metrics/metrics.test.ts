import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { API_BASES } from '#shared/api-bases.ts';
import { loadConfig } from '../../config.ts';
import { poolUsage } from '../../db/pool-usage.ts';
import { gatewayEvents, mailOutbox } from '../../db/schema/index.ts';
import { TEST_QUEUE_TIMINGS } from '../../test/test-app.ts';
import { credentials, startApp } from '../../test/test-realtime.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { createTestServer } from '../../test/vpn-kit.ts';
import { until } from '../../test/wait-until.ts';

// /metrics over real HTTP: the product's port, then the metrics' own port, read as
// Prometheus reads it and parsed line by line (the text format, 0.0.4).

const TOKEN = 'metrics-token-for-this-test-0123456789';
const { app, port } = await startApp(
  // A mail server that is never reached: with SMTP_URL the outbox backlog is a backlog.
  { METRICS_PORT: '0', METRICS_TOKEN: TOKEN, SMTP_URL: 'smtp://127.0.0.1:9' },
  { queue: TEST_QUEUE_TIMINGS },
);
const main = `http://127.0.0.1:${port}`;

function metricsUrl(): string {
  const address = app.metrics.address();
  if (!address) throw new Error('metrics are not listening');
  return `http://127.0.0.1:${address.port}/metrics`;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** `name{a="x",b="y"} 1.5` lines; HELP and TYPE lines skipped. */
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = SAMPLE.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(LABEL)].map(([, key, value]) => [key, value]),
      );
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}

async function scrape(): Promise<Sample[]> {
  const response = await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return parse(await response.text());
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );

describe('the metrics listener', () => {
  it('is not on the product port', async () => {
    const response = await fetch(`${main}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('http_requests_total');
  });

  it('asks for the token', async () => {
    expect((await fetch(metricsUrl())).status).toBe(401);
    const wrong = await fetch(metricsUrl(), { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fetch(metricsUrl().replace('/metrics', '/other'))).status).toBe(404);
  });
});

describe('request series', () => {
  it('label requests by route pattern, never by the ids, addresses or tokens in their path', async () => {
    const session = await signedInUser(app);
    const headers = { cookie: session.cookie, 'x-requested-with': 'fetch' };
    const pdf = await fetch(`${main}${API_BASES.account}/billing/invoices/123456/pdf`, { headers });
    expect(pdf.status).toBe(404);
    const stray = await fetch(`${main}${API_BASES.public}/people/someone@example.com?token=abc`);
    expect(stray.status).toBe(404);
    expect((await fetch(`${main}/healthz`)).status).toBe(200);

    const samples = await scrape();
    const requests = find(samples, 'http_requests_total');
    expect(
      find(requests, 'http_requests_total', {
        route: `${API_BASES.account}/billing/invoices/:invoice_id/pdf`,
        method: 'GET',
        status: '404',
      })[0]?.value,
    ).toBe(1);
    expect(
      find(requests, 'http_requests_total', { route: 'unmatched', status: '404' }).length,
    ).toBeGreaterThan(0);
    expect(
      find(samples, 'http_requests_total', { route: '/healthz', method: 'GET', status: '200' })[0]
        ?.value,
    ).toBeGreaterThanOrEqual(1);
    // The latency histogram, by status class.
    const buckets = find(samples, 'http_request_duration_seconds_bucket', {
      route: '/healthz',
      status_class: '2xx',
    });
    expect(buckets.find((bucket) => bucket.labels.le === '+Inf')?.value).toBeGreaterThanOrEqual(1);
    expect(find(samples, 'http_request_duration_seconds_count').length).toBeGreaterThan(0);

    // No label value anywhere holds an id, an address or a query; a route is a pattern.
    for (const sample of samples) {
      for (const value of Object.values(sample.labels)) expect(value).not.toMatch(/123456|@|\?/);
      const { route } = sample.labels;
      if (route !== undefined) expect(route).toMatch(/^(unmatched|(\/[\w.:*-]*)+)$/);
    }
  });
});

describe('gauges read at scrape time', () => {
  it('report the process, queues, mail, webhooks, VPN nodes and realtime connections', async () => {
    // A job nobody works on, due a minute ago.
    await app.queue.send(
      'metrics-test.idle',
      { n: 1 },
      { startAfter: new Date(Date.now() - 60_000) },
    );
    // A webhook applied 12 s after its receipt, and one whose last attempt failed.
    const now = Date.now();
    await app.db.insert(gatewayEvents).values([
      {
        gateway: 'sandbox',
        eventRef: 'evt_metrics_applied',
        type: 'invoice.paid',
        payload: {},
        receivedAt: new Date(now - 12_000),
        processedAt: new Date(now),
        outcome: 'applied',
      },
      {
        gateway: 'sandbox',
        eventRef: 'evt_metrics_failed',
        type: 'invoice.paid',
        payload: {},
        receivedAt: new Date(now - 3_000),
        processedAt: new Date(now - 2_000),
        outcome: 'failed',
        error: 'boom',
      },
    ]);
    // A mail a process dropped while handing it over, two minutes ago.
    await app.db.insert(mailOutbox).values({
      template: 'test',
      toAddress: 'someone@example.com',
      subject: 'Hello',
      html: '',
      text: '',
      status: 'outbox',
      createdAt: new Date(now - 120_000),
    });
    await createTestServer(app, { status: 'online' });
    await createTestServer(app, { status: 'offline' });
    const socket = new WebSocket(
      `ws://127.0.0.1:${port}/app/${credentials.key}?protocol=7&client=js&version=8.4.0`,
    );
    await new Promise((resolve, reject) => {
      socket.once('message', resolve);
      socket.once('error', reject);
    });

    try {
      const samples = await scrape();
      const one = (name: string, labels: Record<string, string> = {}) => {
        const found = find(samples, name, labels);
        expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
        return found[0]?.value ?? Number.NaN;
      };
      // prom-client's defaults: memory and event-loop delay.
      expect(one('process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(one('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);

      expect(one('job_queue_waiting_jobs', { queue: 'metrics-test.idle' })).toBe(1);
      expect(
        one('job_queue_oldest_waiting_seconds', { queue: 'metrics-test.idle' }),
      ).toBeGreaterThan(55);
      expect(one('job_queue_active_jobs', { queue: 'metrics-test.idle' })).toBe(0);

      expect(one('mail_outbox_pending_messages')).toBe(1);
      expect(one('mail_outbox_oldest_pending_seconds')).toBeGreaterThan(115);

      expect(one('webhook_apply_lag_seconds', { gateway: 'sandbox' })).toBeGreaterThanOrEqual(11);
      expect(one('webhook_unapplied_events', { gateway: 'sandbox' })).toBe(1);

      expect(one('vpn_servers', { status: 'online' })).toBe(1);
      expect(one('vpn_servers', { status: 'offline' })).toBe(1);
      expect(one('vpn_servers', { status: 'maintenance' })).toBe(0);
      expect(one('vpn_node_report_lag_seconds')).toBeLessThan(60);

      expect(one('realtime_connections')).toBe(1);
      expect(one('metrics_read_errors_total', { read: 'database' })).toBe(0);

      // The pool's figures exist where there is a pool (PostgreSQL), not on PGlite.
      const pooled = find(samples, 'db_pool_max_connections');
      expect(pooled).toHaveLength(poolUsage(app.db) ? 1 : 0);
      if (poolUsage(app.db)) {
        expect(one('db_pool_waiting_queries')).toBe(0);
        expect(find(samples, 'db_pool_connections', { state: 'idle' })).toHaveLength(1);
      }
    } finally {
      socket.close();
    }
    await until(async () => {
      const samples = await scrape();
      return find(samples, 'realtime_connections')[0]?.value === 0;
    }, 'the socket to be gone from the gauge');
  });

  it('gives up a slow read and still answers the scrape', async () => {
    app.metrics.readAtScrape('stuck', () => new Promise<number>(() => {}), [
      {
        name: 'metrics_test_stuck',
        help: 'A read that never answers.',
        values: (n) => [{ value: n }],
      },
    ]);
    const started = Date.now();
    const samples = await scrape();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(find(samples, 'metrics_test_stuck')[0]?.value).toBeNaN();
    // The other reads were not held up by it.
    expect(find(samples, 'metrics_read_errors_total', { read: 'database' })[0]?.value).toBe(0);
    // Counted as it failed, so the next scrape shows it (the counter was read at once).
    const next = await scrape();
    expect(find(next, 'metrics_read_errors_total', { read: 'stuck' })[0]?.value).toBe(1);
  });
});

describe('metrics settings', () => {
  const base = { NODE_ENV: 'test', APP_SECRET: 'x'.repeat(40) };

  it('are off unless METRICS_PORT is set', () => {
    expect(loadConfig(base).metrics).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_PORT: '9464' }).metrics).toEqual({
      host: '127.0.0.1',
      port: 9464,
      token: undefined,
    });
  });

  it.each([
    [{ METRICS_TOKEN: TOKEN }, 'METRICS_TOKEN: needs METRICS_PORT'],
    [{ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }, 'METRICS_TOKEN: is needed'],
    [{ METRICS_PORT: '3000', PORT: '3000' }, 'METRICS_PORT: must differ from PORT'],
    [{ METRICS_PORT: '9464', METRICS_TOKEN: 'short' }, 'METRICS_TOKEN: must be at least 24'],
  ])('refuse %o', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });

  it('take a public address with a token', () => {
    const config = loadConfig({
      ...base,
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      METRICS_TOKEN: TOKEN,
    });
    expect(config.metrics).toEqual({ host: '0.0.0.0', port: 9464, token: TOKEN });
  });
});
