import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import Pusher from 'pusher';
import { WebSocket } from 'ws';
import type { Measurement } from './measure.ts';
import type { CustomMeasureContext } from './scenarios.ts';

// Fan-out latency of a Pusher-protocol server: N websocket clients on one channel, events
// published through the official `pusher` library (the HTTP events API) at a steady rate,
// and the time from the publish call to each client's receipt. Also the server's memory per
// idle connection, as its RSS with N clients less its RSS with none. The clients are bare `ws`
// sockets speaking the protocol, far lighter than N pusher-js instances.

export interface PusherTarget {
  appId: string;
  key: string;
  secret: string;
}

const CHANNEL = 'bench-fanout';
const EVENT = 'tick';
/** Steady, well under saturation: the figure is latency, not throughput. */
const EVENTS_PER_SECOND = 20;
const CONNECT_CONCURRENCY = 100;
const STEP_TIMEOUT_MS = 15_000;
const SETTLE_MS = 1_000;

type Frame = { event?: string; channel?: string; data?: unknown };

/** The id in a `tick` frame, read without parsing: the client process must stay light. */
const TICK_ID = /^\{"event":"tick".*\\"id\\":(-?\d+)/;

/** Resident memory of a process in MB: /proc on Linux, ps elsewhere. */
async function rssMb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {
    // Not Linux: ask ps.
  }
  const { stdout } = await promisify(execFile)('ps', ['-o', 'rss=', '-p', String(pid)]);
  return Number(stdout.trim()) / 1024;
}

/**
 * After a full collection in the server (serve.ts), the median of a few samples, so neither
 * garbage nor one allocation burst decides the figure.
 */
async function steadyRssMb(pid: number): Promise<number> {
  // Twice: a large heap (the in-memory database) is not always handed back after one.
  for (let round = 0; round < 2; round++) {
    process.kill(pid, 'SIGUSR2');
    await sleep(SETTLE_MS);
  }
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(await rssMb(pid));
    await sleep(100);
  }
  return samples.sort((a, b) => a - b)[2] ?? 0;
}

/**
 * A client address of its own for client `index` (10.x.y.z): as many people behind a load
 * balancer, not one machine holding a thousand sockets, which the server's cap on sockets
 * per address would refuse.
 */
function clientAddress(index: number): string {
  return `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
}

/** Opens a socket, waits for the greeting, subscribes, and waits for the confirmation. */
function subscribedClient(
  wsUrl: string,
  index: number,
  onTick: (id: number, receivedAt: number) => void,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, {
      perMessageDeflate: false,
      headers: { 'x-forwarded-for': clientAddress(index) },
    });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('a client did not subscribe in time'));
    }, STEP_TIMEOUT_MS);
    ws.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    ws.on('message', (raw) => {
      const receivedAt = performance.now();
      const text = raw.toString();
      const tick = TICK_ID.exec(text)?.[1];
      if (tick !== undefined) {
        onTick(Number(tick), receivedAt);
        return;
      }
      const frame = JSON.parse(text) as Frame;
      if (frame.event === 'pusher:connection_established') {
        ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: CHANNEL } }));
      } else if (frame.event === 'pusher_internal:subscription_succeeded') {
        clearTimeout(timer);
        resolve(ws);
      } else if (frame.event === 'pusher:ping') {
        ws.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
      }
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export async function measureFanout(
  context: CustomMeasureContext,
  target: PusherTarget,
): Promise<Measurement> {
  const { options, signal, scenario } = context;
  const base = new URL(context.baseUrl);
  const clients = options.realtimeClients;
  const problems: string[] = [];

  const idleRssMb = await steadyRssMb(context.pid);

  // Receipt times per event id; an id below zero is a warm-up event, not recorded.
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let deliveries = 0;
  const onTick = (id: number, receivedAt: number) => {
    const started = sentAt.get(id);
    if (id >= 0 && started !== undefined) {
      latencies.push(receivedAt - started);
      deliveries++;
    }
  };

  const wsUrl = `ws://${base.host}/app/${target.key}?protocol=7&client=bench&version=1`;
  const sockets: WebSocket[] = [];
  try {
    for (let start = 0; start < clients && !signal.aborted; start += CONNECT_CONCURRENCY) {
      const batch = Math.min(CONNECT_CONCURRENCY, clients - start);
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: batch }, (_, offset) =>
            subscribedClient(wsUrl, start + offset, onTick),
          ),
        )),
      );
    }
    const connectedRssMb = await steadyRssMb(context.pid);

    const publisher = new Pusher({
      ...target,
      host: base.hostname,
      port: base.port,
      useTLS: false,
      timeout: STEP_TIMEOUT_MS,
    });
    let failures = 0;
    const publish = async (id: number) => {
      sentAt.set(id, performance.now());
      await publisher.trigger(CHANNEL, EVENT, { id }).catch(() => {
        failures++;
      });
    };
    const run = async (count: number, firstId: number) => {
      const pending: Promise<void>[] = [];
      const started = performance.now();
      for (let index = 0; index < count && !signal.aborted; index++) {
        // A fixed schedule, not one after the other: a slow answer must not slow the rate.
        const due = started + (index * 1000) / EVENTS_PER_SECOND;
        await sleep(Math.max(0, due - performance.now()));
        pending.push(publish(firstId + index));
      }
      await Promise.all(pending);
      // Let the last events arrive.
      await sleep(500);
    };

    await run(options.warmup * EVENTS_PER_SECOND, -1_000_000);
    const measuredStart = performance.now();
    const events = options.duration * EVENTS_PER_SECOND;
    await run(events, 0);
    const seconds = (performance.now() - measuredStart) / 1000;
    if (signal.aborted) throw new Error('interrupted');

    const expected = events * clients;
    if (failures > 0) problems.push(`${failures} publishes failed`);
    if (deliveries < expected) problems.push(`${expected - deliveries} deliveries missing`);
    latencies.sort((a, b) => a - b);
    const round = (value: number) => Math.round(value * 100) / 100;
    return {
      name: scenario.name,
      server: scenario.server,
      method: 'WS',
      path: `${scenario.path} ×${clients}`,
      rps: deliveries / seconds,
      rpsStddev: 0,
      latencyMs: {
        p50: round(percentile(latencies, 50)),
        p90: round(percentile(latencies, 90)),
        p99: round(percentile(latencies, 99)),
        average: round(latencies.reduce((sum, value) => sum + value, 0) / (latencies.length || 1)),
        max: round(latencies.at(-1) ?? 0),
      },
      requests: events,
      errors: failures,
      timeouts: 0,
      statusCounts: {},
      problems,
      memory: {
        clients,
        idleRssMb: round(idleRssMb),
        connectedRssMb: round(connectedRssMb),
        perThousandMb: round(((connectedRssMb - idleRssMb) * 1000) / clients),
      },
    };
  } finally {
    for (const ws of sockets) ws.terminate();
  }
}
