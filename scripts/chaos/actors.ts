import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { authEndpoints } from '#shared/contracts/auth.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { nodeEndpoints } from '#shared/contracts/vpn-node.ts';
import type { Traffic } from './traffic.ts';

// The mixed load of the fault suite: each actor loops until told to stop and writes what it
// was answered in the ledger, which the checks then hold against the database.

export const PASSWORD = 'Chaos#2024password';
const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123', name: 'C' };
/** A client's patience with one order: the same key again, as the order page retries. */
const ORDER_ATTEMPTS = 20;

export interface Order {
  email: string;
  key: string;
  attempts: number;
  /** The last answer's status (0: none came). */
  status: number;
}

export interface NodeLedger {
  serverId: number;
  /** Bytes sent in reports, by peer public key. */
  sent: Map<string, { rx: number; tx: number }>;
  /** Reports not acknowledged yet: sent again with the next call, as the agent does. */
  pending: object[];
  seq: number;
}

export interface Ledger {
  run: string;
  signUps: { email: string; status: number }[];
  signIns: { status: number }[];
  orders: Order[];
  nodes: NodeLedger[];
}

export function newLedger(): Ledger {
  return {
    run: randomUUID().slice(0, 8),
    signUps: [],
    signIns: [],
    orders: [],
    nodes: [],
  };
}

const cookieOf = (headers: Headers) => headers.get('set-cookie')?.split(';')[0];

export async function signUp(traffic: Traffic, email: string) {
  const answer = await traffic.call('sign-up', 'POST', authEndpoints.signUp.url, {
    body: { email, password: PASSWORD, password_confirmation: PASSWORD },
  });
  return { status: answer.status, cookie: cookieOf(answer.headers) };
}

/** New people, one after another. */
export async function signUps(traffic: Traffic, ledger: Ledger, stop: AbortSignal) {
  for (let n = 0; !stop.aborted; n += 1) {
    const email = `chaos-${ledger.run}-su${n}@example.com`;
    const { status } = await signUp(traffic, email);
    ledger.signUps.push({ email, status });
    await sleep(300);
  }
}

/** People signing in again and again, each time reading who they are. */
export async function signIns(
  traffic: Traffic,
  ledger: Ledger,
  emails: readonly string[],
  stop: AbortSignal,
) {
  for (let n = 0; !stop.aborted; n += 1) {
    const email = emails[n % emails.length] ?? '';
    const answer = await traffic.call('sign-in', 'POST', authEndpoints.signIn.url, {
      body: { email, password: PASSWORD },
    });
    ledger.signIns.push({ status: answer.status });
    const cookie = cookieOf(answer.headers);
    if (cookie) await traffic.call('list', 'POST', authEndpoints.getAuthUser.url, { cookie });
    await sleep(150);
  }
}

/** Public and signed-in reads. */
export async function lists(traffic: Traffic, cookie: string, stop: AbortSignal) {
  while (!stop.aborted) {
    await traffic.call('list', 'GET', `${billingEndpoints.products.url}?service_id=1&currency=USD`);
    await traffic.call('list', 'POST', authEndpoints.getAuthUser.url, { cookie });
    await sleep(100);
  }
}

/** New customers buying the monthly plan on the sandbox, retrying with their key. */
export async function buyers(
  traffic: Traffic,
  ledger: Ledger,
  productId: number,
  stop: AbortSignal,
) {
  for (let n = 0; !stop.aborted; n += 1) {
    const email = `chaos-${ledger.run}-buyer${n}@example.com`;
    const { status, cookie } = await signUp(traffic, email);
    ledger.signUps.push({ email, status });
    if (!cookie) continue;
    const token = await traffic.call('checkout', 'POST', '/sandbox/v1/tokens', { body: CARD });
    const tokenId = (token.body as { id?: string } | undefined)?.id;
    if (!tokenId) continue;
    const order: Order = { email, key: randomUUID(), attempts: 0, status: 0 };
    ledger.orders.push(order);
    const body = {
      product_id: productId,
      addon_ids: [],
      payment: { service_id: 1, token: tokenId },
      idempotency_key: order.key,
      lang: 'en',
    };
    // Until a final answer: none (cut), a 5xx, or 409 "still in progress" are retried.
    while (order.attempts < ORDER_ATTEMPTS) {
      order.attempts += 1;
      const answer = await traffic.call('checkout', 'POST', billingEndpoints.checkout.url, {
        cookie,
        body,
      });
      order.status = answer.status;
      if (answer.status !== 0 && answer.status < 500 && answer.status !== 409) break;
      await sleep(1_000);
    }
    await sleep(200);
  }
}

/** A node's traffic in one report: its peers each moved a few hundred kilobytes. */
function reportOf(node: NodeLedger, keys: readonly string[]) {
  node.seq += 1;
  const peers = keys.map((key, i) => {
    const rx = 1_000 + ((node.seq * 31 + i * 17) % 500) * 1_000;
    const tx = 2_000 + ((node.seq * 13 + i * 29) % 700) * 1_000;
    const total = node.sent.get(key) ?? { rx: 0, tx: 0 };
    node.sent.set(key, { rx: total.rx + rx, tx: total.tx + tx });
    return { public_key: key, rx, tx, latest_handshake_at: new Date().toISOString() };
  });
  return {
    seq: node.seq,
    taken_at: new Date().toISOString(),
    cpu: 20,
    active_peers: peers.length,
    peers,
  };
}

/**
 * A VPN node agent's reporting: a numbered report every second; every call carries all the
 * reports not yet acknowledged, which are dropped only once the API says it counted them.
 */
export async function nodeReports(
  traffic: Traffic,
  node: NodeLedger,
  token: string,
  stop: AbortSignal,
) {
  const headers = { authorization: `Bearer ${token}` };
  let keys: string[] = [];
  while (keys.length === 0 && !stop.aborted) {
    const answer = await traffic.call('node', 'GET', nodeEndpoints.peers.url, { headers });
    keys = ((answer.body as { peers?: { public_key: string }[] })?.peers ?? []).map(
      (peer) => peer.public_key,
    );
    if (keys.length === 0) await sleep(1_000);
  }
  const stream = randomUUID();
  const flush = async () => {
    const batch = node.pending.slice(0, 50);
    if (batch.length === 0) return true;
    const answer = await traffic.call('node', 'POST', nodeEndpoints.report.url, {
      headers,
      body: { stream, reports: batch },
    });
    const acked = (answer.body as { acked_seq?: number } | undefined)?.acked_seq;
    if (answer.status === 200 && typeof acked === 'number') {
      node.pending = node.pending.filter((report) => (report as { seq: number }).seq > acked);
    }
    return node.pending.length === 0;
  };
  while (!stop.aborted) {
    node.pending.push(reportOf(node, keys));
    await flush();
    await sleep(1_000);
  }
  // Stopped: what is still pending goes out, as an agent's queue would after the outage.
  for (let tries = 0; tries < 60 && !(await flush()); tries += 1) await sleep(500);
}
