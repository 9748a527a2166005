import type pg from 'pg';
import type {
  SandboxInvoice,
  SandboxPayment,
  SandboxSubscription,
} from '#server/platform/payments/sandbox/sandbox-objects.ts';
import {
  invoiceSnapshot,
  paymentSnapshot,
  subscriptionSnapshot,
} from '#server/platform/payments/sandbox/snapshots.ts';
import type { TestSmtp } from '#server/test/test-smtp.ts';
import type { Ledger } from './actors.ts';
import type { Burst } from './webhook-burst.ts';

// What the fault suite promises, read back from the database and the mail catcher once the
// load has stopped and the queues have settled. Each check answers a line of the report.

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const ok2xx = (status: number) => status >= 200 && status < 300;

/** Every sign-up and order answered 2xx is in the database. */
export async function writesKept(db: pg.Pool, ledger: Ledger): Promise<Check> {
  const answered = ledger.signUps.filter((s) => ok2xx(s.status)).map((s) => s.email);
  const users = await db.query<{ email: string }>('select email from users where email = any($1)', [
    answered,
  ]);
  const found = new Set(users.rows.map((row) => row.email));
  const missingUsers = answered.filter((email) => !found.has(email));
  const paid = ledger.orders.filter((order) => ok2xx(order.status)).map((order) => order.email);
  const subscribed = await db.query<{ email: string }>(
    `select distinct u.email from subscriptions s join users u on u.id = s.user_id
     where u.email = any($1) and s.status = 'active'`,
    [paid],
  );
  const withPlan = new Set(subscribed.rows.map((row) => row.email));
  const missingOrders = paid.filter((email) => !withPlan.has(email));
  return {
    name: 'every write answered 2xx is in the database',
    ok: missingUsers.length === 0 && missingOrders.length === 0,
    detail: `${answered.length} sign-ups, ${paid.length} orders answered 2xx; missing: ${missingUsers.length} people, ${missingOrders.length} active plans`,
  };
}

/** No buyer paid twice: one succeeded payment per chaos buyer at most, in our books and the gateway's. */
export async function chargedOnce(db: pg.Pool, ledger: Ledger): Promise<Check> {
  const buyers = ledger.orders.map((order) => order.email);
  const ours = await db.query<{ email: string; n: string }>(
    `select u.email, count(*) as n from payments p join users u on u.id = p.user_id
     where u.email = any($1) and p.status = 'succeeded' group by u.email having count(*) > 1`,
    [buyers],
  );
  // The gateway's own charges (a duplicate the product refunded at once is not a charge kept).
  const gateway = await db.query<{ customer_id: string; n: string }>(
    `select data->>'customer' as customer_id, count(*) as n from sandbox_objects
     where kind = 'payment' and data->>'status' = 'succeeded'
       and (data->>'amountRefunded')::int < (data->>'amount')::int
       and data->>'customer' in (select gc.customer_ref from gateway_customers gc
         join users u on u.id = gc.user_id where gc.gateway = 'sandbox' and u.email = any($1))
     group by data->>'customer' having count(*) > 1`,
    [buyers],
  );
  const paid = ledger.orders.filter((order) => ok2xx(order.status)).length;
  const retried = ledger.orders.filter((order) => order.attempts > 1).length;
  return {
    name: 'no order was charged twice',
    ok: ours.rows.length === 0 && gateway.rows.length === 0,
    detail: `${paid} orders paid (${retried} retried with their key); charged twice: ${ours.rows.length} in our books, ${gateway.rows.length} at the gateway`,
  };
}

/**
 * Every person this run made got their mail (a verification; a buyer also their receipt):
 * each message at least once (a repeat after a lost answer is allowed) and with one
 * Message-ID; none left failed or waiting.
 */
export async function mailOnce(db: pg.Pool, ledger: Ledger, catcher: TestSmtp): Promise<Check> {
  const prefix = `chaos-${ledger.run}-`;
  const people = await db.query<{ email: string }>('select email from users where email like $1', [
    `${prefix}%`,
  ]);
  /** Message-IDs by recipient and subject: one message, however often delivered. */
  const ids = new Map<string, Set<string>>();
  const recipients = new Set<string>();
  let deliveries = 0;
  for (const mail of catcher.messages) {
    for (const to of mail.envelope.to.map((address) => address.toLowerCase())) {
      if (!to.startsWith(prefix)) continue;
      deliveries += 1;
      recipients.add(to);
      const key = `${to} ${mail.subject}`;
      const seen = ids.get(key) ?? new Set<string>();
      seen.add(mail.parsed.messageId ?? `(none ${deliveries})`);
      ids.set(key, seen);
    }
  }
  const missing = people.rows.filter((row) => !recipients.has(row.email.toLowerCase()));
  const twice = [...ids.values()].filter((seen) => seen.size > 1).length;
  const repeated = deliveries - ids.size;
  const stuck = await db.query<{ status: string; n: string }>(
    `select status, count(*) as n from mail_outbox where to_address like $1 and status <> 'sent'
     group by status`,
    [`${prefix}%`],
  );
  const unsent = stuck.rows.map((row) => `${row.n} ${row.status}`).join(', ') || 'none';
  return {
    name: 'every mail went out exactly once (one Message-ID each)',
    ok: missing.length === 0 && twice === 0 && stuck.rows.length === 0,
    detail: `${people.rows.length} people, ${ids.size} messages, ${deliveries} deliveries (${repeated} repeated after a lost answer, same Message-ID); people without mail ${missing.length}, a message sent as two ${twice}, not sent: ${unsent}`,
  };
}

/**
 * Every webhook of the burst stored once, none failed, and our books still agree with the
 * gateway's (the replays carried older states: applying one must not have undone a newer).
 */
export async function webhooksOnce(db: pg.Pool, burst: Burst, ledger: Ledger): Promise<Check> {
  const stored = await db.query<{ outcome: string | null; n: string }>(
    'select outcome, count(*) as n from gateway_events where event_ref = any($1) group by outcome',
    [burst.ids],
  );
  const byOutcome = new Map(stored.rows.map((row) => [row.outcome ?? 'none', Number(row.n)]));
  const total = [...byOutcome.values()].reduce((sum, n) => sum + n, 0);
  const differing = await booksDiffer(db, `chaos-${ledger.run}-%`);
  const answers = [...burst.statuses].map(([status, n]) => `${n}×${status}`).join(' ');
  return {
    name: 'every webhook was applied once, the books agree with the gateway',
    ok: total === burst.ids.length && !byOutcome.has('failed') && differing.length === 0,
    detail: `${burst.sent} sent in ${burst.seconds.toFixed(1)} s (${burst.ids.length} distinct; ${answers}); stored ${total} (${[...byOutcome].map(([o, n]) => `${n} ${o}`).join(', ')}); records unlike the gateway's: ${differing.length === 0 ? 'none' : differing.slice(0, 5).join(', ')}`,
  };
}

/** Our subscriptions, invoices and payments of these people whose state is not the gateway's. */
async function booksDiffer(db: pg.Pool, people: string): Promise<string[]> {
  const ours = await db.query<{ kind: string; ref: string; status: string }>(
    `select 'subscription' as kind, s.gateway_ref as ref, s.status::text as status
       from subscriptions s join users u on u.id = s.user_id
       where s.gateway = 'sandbox' and u.email like $1
     union all
     select 'invoice', i.gateway_ref, i.status::text from invoices i join users u on u.id = i.user_id
       where i.gateway = 'sandbox' and u.email like $1
     union all
     select 'payment', p.gateway_ref, p.status::text from payments p join users u on u.id = p.user_id
       where p.gateway = 'sandbox' and u.email like $1`,
    [people],
  );
  const theirs = await db.query<{ id: string; data: Record<string, unknown> }>(
    'select id, data from sandbox_objects where id = any($1)',
    [ours.rows.map((row) => row.ref)],
  );
  const byId = new Map(theirs.rows.map((row) => [row.id, row.data]));
  const statusAtGateway = (kind: string, data: Record<string, unknown>) =>
    kind === 'subscription'
      ? subscriptionSnapshot(data as unknown as SandboxSubscription).status
      : kind === 'invoice'
        ? invoiceSnapshot(data as unknown as SandboxInvoice).status
        : paymentSnapshot(data as unknown as SandboxPayment).status;
  return ours.rows.flatMap((row) => {
    const data = byId.get(row.ref);
    const expected = data ? statusAtGateway(row.kind, data) : 'missing';
    return expected === row.status ? [] : [`${row.kind} ${row.ref} ${row.status}≠${expected}`];
  });
}

export async function usageKept(db: pg.Pool, ledger: Ledger): Promise<Check> {
  let peers = 0;
  let short = 0;
  let pending = 0;
  let bytes = 0;
  for (const node of ledger.nodes) {
    pending += node.pending.length;
    const keys = [...node.sent.keys()];
    const rows = await db.query<{ public_key: string; rx: string; tx: string }>(
      'select public_key, rx_bytes as rx, tx_bytes as tx from vpn_devices where public_key = any($1)',
      [keys],
    );
    const counted = new Map(rows.rows.map((row) => [row.public_key, row]));
    for (const [key, sent] of node.sent) {
      peers += 1;
      bytes += sent.rx + sent.tx;
      const row = counted.get(key);
      if (!row || Number(row.rx) !== sent.rx || Number(row.tx) !== sent.tx) short += 1;
    }
  }
  return {
    name: 'no node usage was lost (or counted twice)',
    ok: short === 0 && pending === 0 && peers > 0,
    detail: `${ledger.nodes.length} nodes, ${peers} peers, ${(bytes / 1e9).toFixed(2)} GB reported; peers whose total differs: ${short}; reports never acknowledged: ${pending}`,
  };
}
