import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '#shared/contracts/account.ts';
import { customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { invoiceEndpoints } from '#shared/contracts/admin/invoices.ts';
import { productEndpoints } from '#shared/contracts/admin/products.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { familySharingEndpoints as family } from '#shared/contracts/family-sharing.ts';
import { vpnEndpoints } from '#shared/contracts/vpn.ts';
import { nodeEndpoints as n } from '#shared/contracts/vpn-node.ts';
import { POLL_WAIT_MS } from '#shared/vpn/fleet-rules.ts';
import { familyMembers, vpnDevices } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { endpointClient } from '../../test/api-client.ts';
import { CARDS, cardToken, openShop, paymentArrived } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';
import { TEST_PASSWORD } from '../../test/test-users.ts';
import {
  createTestServer,
  grantAccess,
  type TestServer,
  wireGuardKeyPair,
} from '../../test/vpn-kit.ts';
import { until } from '../../test/wait-until.ts';
import { SCHEDULED_JOBS, type ScheduledJob } from '../jobs/scheduled-jobs.ts';
import { fleetSweep } from './fleet-sweep.ts';

// The access rule seen from the nodes: when the ledger says someone's access ended, each of
// their peers leaves each node's long-poll list, and comes back with the access. Every event
// goes through the product's own routes; what applies it is the path production uses:
//
// - billing changes (a refund that ends the plan, a plan change, a new purchase) reach the
//   nodes inside the request itself: billing's listener (vpn-plugin.ts, onBillingApplied)
//   syncs the person before the route answers and wakes the nodes' polls at once. These
//   tests call no sweep for them, and no job runs in the test app (test-app.ts), so only that
//   listener can have taken the peers off.
// - everything else (staff or the customer deactivating the account, a family owner removing
//   a member, a member accepting again) is applied by the fleet sweep (fleet-sweep.ts), which
//   the scheduled job `vpn-fleet-sweep` runs every 10 s in every API process. The tests run
//   one sweep before the event, so the one after it takes the sweep's usual incremental path
//   (people changed since the last run), not the five-minutely full comparison.
//
// Why that is within 60 s: a change is picked up by the next sweep, at most 10 s later (plus
// the run itself); the sweep wakes the node's waiting poll through the peer signal (Redis
// across processes), and a poll held by a process that was not woken re-reads the version when
// its wait ends, at most POLL_WAIT_MS (25 s) later: 10 s + 25 s < 60 s. The last test checks
// that arithmetic on the schedule, and runs the real job on its timer to watch it happen.

/** Long enough that a poll answered before it ends was woken, not timed out. */
const POLL_MS = 15_000;
const SLOW = 90_000;

const { app } = await createTestApp({}, undefined, { vpn: { pollWaitMs: POLL_MS } });
const shop = await openShop(app);
const api = shop.call;
const admin = await signedInUser(app, { role: 'ADMIN' });
const asAdmin = { cookie: admin.cookie };

/** The node's whole peer list, as its agent gets it on start (no version): public keys. */
async function peersOn(server: TestServer, on: App = app): Promise<string[]> {
  const answer = await endpointClient(on)(n.peers, { headers: server.authorization, query: {} });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.data.changed).toBe(true);
  return answer.data.peers.map((peer) => peer.public_key).sort();
}

/**
 * The node's long poll at its current version, as the agent waits. `woken()` checks it was
 * answered with a new version before its wait ran out: the change reached the node at once.
 */
async function watch(server: TestServer) {
  const current = await api(n.peers, { headers: server.authorization, query: {} });
  const started = Date.now();
  const waiting = api(n.peers, {
    headers: server.authorization,
    query: { version: current.data.version },
  });
  return async function woken() {
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.data.changed, 'the node was told of a change').toBe(true);
    expect(answer.data.version).toBeGreaterThan(current.data.version);
    expect(Date.now() - started, 'woken, not at the end of its wait').toBeLessThan(POLL_MS);
  };
}

async function addDevice(session: TestSession, location: string, name: string, on: App = app) {
  const keys = wireGuardKeyPair();
  const added = await endpointClient(on)(vpnEndpoints.create, {
    cookie: session.cookie,
    body: { name, location, public_key: keys.publicKey },
  });
  expect(added.status, added.text).toBe(201);
  expect(added.data.device.enabled).toBe(true);
  return keys.publicKey;
}

const sorted = (...keys: string[]) => [...keys].sort();

async function devicesOf(userId: number) {
  const rows = await app.db
    .select({ publicKey: vpnDevices.publicKey, blockedBy: vpnDevices.blockedBy })
    .from(vpnDevices)
    .where(eq(vpnDevices.userId, userId));
  return Object.fromEntries(rows.map((row) => [row.publicKey, row.blockedBy]));
}

/** A customer who bought `plan` with a card, once its payment has reached us. */
async function payingCustomer(plan = '1 month') {
  const customer = await signedInUser(app);
  const bought = await shop.buy(customer, { plan });
  expect(bought.status, bought.text).toBe(200);
  const invoiceId = bought.data.invoice_id as number;
  await paymentArrived(app, invoiceId);
  return { customer, invoiceId };
}

describe('a refund that ends the plan now', () => {
  it(
    'takes the person’s peers off every node at once, and a new purchase brings them back',
    async () => {
      const hu = await createTestServer(app, { country: 'HU', city: 'Budapest' });
      const ro = await createTestServer(app, { country: 'RO', city: 'Bucharest' });
      const { customer, invoiceId } = await payingCustomer();
      const other = await signedInUser(app);
      await grantAccess(app, other.user.id);
      const laptop = await addDevice(customer, 'HU', 'Laptop');
      const phone = await addDevice(customer, 'RO', 'Phone');
      const neighbour = await addDevice(other, 'HU', 'Neighbour');
      expect(await peersOn(hu)).toEqual(sorted(laptop, neighbour));
      expect(await peersOn(ro)).toEqual([phone]);

      const huTold = await watch(hu);
      const roTold = await watch(ro);
      const refunded = await api(invoiceEndpoints.refund, {
        ...asAdmin,
        body: { invoice_id: invoiceId, end_subscription: true },
      });
      expect(refunded.status, refunded.text).toBe(200);
      expect(refunded.data.subscription?.status).toBe('refunded');
      // No sweep ran: billing's listener applied it inside the refund's request.
      expect(await peersOn(hu)).toEqual([neighbour]);
      expect(await peersOn(ro)).toEqual([]);
      await huTold();
      await roTold();
      // Kept, not deleted: they come back with the access.
      expect(await devicesOf(customer.user.id)).toEqual({
        [laptop]: 'no_access',
        [phone]: 'no_access',
      });
      const list = await api(vpnEndpoints.devices, { cookie: customer.cookie });
      expect(list.data.access.active).toBe(false);

      const huBack = await watch(hu);
      const roBack = await watch(ro);
      const again = await api(billingEndpoints.reactivate, {
        cookie: customer.cookie,
        body: {
          product_id: (await shop.plan('1 month')).id,
          addon_ids: [],
          payment: { service_id: 1, token: await cardToken(app, CARDS.visa) },
          idempotency_key: randomUUID(),
          lang: 'en',
        },
      });
      expect(again.status, again.text).toBe(200);
      expect(again.data.status).toBe('completed');
      expect(await peersOn(hu)).toEqual(sorted(laptop, neighbour));
      expect(await peersOn(ro)).toEqual([phone]);
      await huBack();
      await roBack();
    },
    SLOW,
  );
});

describe('deactivating the account', () => {
  it(
    'by staff: every peer leaves on the next sweep, and staff’s reactivation brings them back',
    async () => {
      const bg = await createTestServer(app, { country: 'BG', city: 'Sofia' });
      const gr = await createTestServer(app, { country: 'GR', city: 'Athens' });
      const customer = await signedInUser(app);
      await grantAccess(app, customer.user.id);
      const other = await signedInUser(app);
      await grantAccess(app, other.user.id);
      const laptop = await addDevice(customer, 'BG', 'Laptop');
      const phone = await addDevice(customer, 'GR', 'Phone');
      const neighbour = await addDevice(other, 'BG', 'Neighbour');
      await fleetSweep(app);
      expect(await peersOn(bg)).toEqual(sorted(laptop, neighbour));
      expect(await peersOn(gr)).toEqual([phone]);

      const body = { user_id: customer.user.id, password: TEST_PASSWORD };
      const bgTold = await watch(bg);
      const grTold = await watch(gr);
      const gone = await api(customerEndpoints.delete, { ...asAdmin, body });
      expect(gone.status, gone.text).toBe(200);
      expect(gone.data.user.delete_at).not.toBeNull();
      // What the scheduled job runs every 10 s.
      await fleetSweep(app);
      await bgTold();
      await grTold();
      expect(await peersOn(bg)).toEqual([neighbour]);
      expect(await peersOn(gr)).toEqual([]);
      expect(await devicesOf(customer.user.id)).toEqual({
        [laptop]: 'no_access',
        [phone]: 'no_access',
      });

      const bgBack = await watch(bg);
      const grBack = await watch(gr);
      const back = await api(customerEndpoints.deleteCancel, { ...asAdmin, body });
      expect(back.status, back.text).toBe(200);
      expect(back.data.user.delete_at).toBeNull();
      await fleetSweep(app);
      await bgBack();
      await grBack();
      expect(await peersOn(bg)).toEqual(sorted(laptop, neighbour));
      expect(await peersOn(gr)).toEqual([phone]);
    },
    SLOW,
  );

  it(
    'by the customer: their peers leave on the next sweep, and come back when they reactivate',
    async () => {
      const ie = await createTestServer(app, { country: 'IE', city: 'Dublin' });
      const customer = await signedInUser(app);
      await grantAccess(app, customer.user.id);
      const laptop = await addDevice(customer, 'IE', 'Laptop');
      await fleetSweep(app);
      expect(await peersOn(ie)).toEqual([laptop]);

      const told = await watch(ie);
      const gone = await api(accountEndpoints.delete.account, {
        cookie: customer.cookie,
        body: { password: TEST_PASSWORD },
      });
      expect(gone.status, gone.text).toBe(200);
      await fleetSweep(app);
      await told();
      expect(await peersOn(ie)).toEqual([]);
      expect(await devicesOf(customer.user.id)).toEqual({ [laptop]: 'no_access' });

      const back = watch(ie);
      const reactivated = await api(accountEndpoints.deleteCancel.account, {
        cookie: customer.cookie,
      });
      expect(reactivated.status, reactivated.text).toBe(200);
      await fleetSweep(app);
      await (await back)();
      expect(await peersOn(ie)).toEqual([laptop]);
    },
    SLOW,
  );
});

describe('a family owner removing a member', () => {
  it(
    'takes the member’s peers off on the next sweep, keeps the owner’s, and re-adding brings them back; the owner’s refund ends both',
    async () => {
      const es = await createTestServer(app, { country: 'ES', city: 'Madrid' });
      const pt = await createTestServer(app, { country: 'PT', city: 'Lisbon' });
      const { customer: owner, invoiceId } = await payingCustomer('Family, 1 year');
      const created = await api(family.create, { cookie: owner.cookie });
      expect(created.status, created.text).toBe(200);
      const member = await signedInUser(app);
      const invite = async () => {
        const invited = await api(family.invite, {
          cookie: owner.cookie,
          body: { email: member.user.email },
        });
        expect(invited.status, invited.text).toBe(200);
        const accepted = await api(family.accept, { cookie: member.cookie });
        expect(accepted.status, accepted.text).toBe(200);
        expect(accepted.data.familySharing.role).toBe('member');
      };
      await invite();
      const ownerLaptop = await addDevice(owner, 'ES', 'Owner laptop');
      const ownerPhone = await addDevice(owner, 'PT', 'Owner phone');
      const memberLaptop = await addDevice(member, 'ES', 'Member laptop');
      const memberPhone = await addDevice(member, 'PT', 'Member phone');
      await fleetSweep(app);
      expect(await peersOn(es)).toEqual(sorted(ownerLaptop, memberLaptop));
      expect(await peersOn(pt)).toEqual(sorted(ownerPhone, memberPhone));

      const [seat] = await app.db
        .select({ id: familyMembers.id })
        .from(familyMembers)
        .where(eq(familyMembers.userId, member.user.id));
      const esTold = await watch(es);
      const ptTold = await watch(pt);
      const removed = await api(family.remove, {
        cookie: owner.cookie,
        body: { user_id: seat?.id ?? 0 },
      });
      expect(removed.status, removed.text).toBe(200);
      await fleetSweep(app);
      await esTold();
      await ptTold();
      expect(await peersOn(es)).toEqual([ownerLaptop]);
      expect(await peersOn(pt)).toEqual([ownerPhone]);
      expect(await devicesOf(member.user.id)).toEqual({
        [memberLaptop]: 'no_access',
        [memberPhone]: 'no_access',
      });
      expect(await devicesOf(owner.user.id)).toEqual({ [ownerLaptop]: null, [ownerPhone]: null });

      const esBack = await watch(es);
      await invite();
      await fleetSweep(app);
      await esBack();
      expect(await peersOn(es)).toEqual(sorted(ownerLaptop, memberLaptop));
      expect(await peersOn(pt)).toEqual(sorted(ownerPhone, memberPhone));

      // The owner's plan refunded: the owner's peers go inside the request (billing's
      // listener syncs the person it billed); the member's seat ends with it (family's
      // listener writes the ledger), and the sweep takes their peers off.
      const refunded = await api(invoiceEndpoints.refund, {
        ...asAdmin,
        body: { invoice_id: invoiceId, end_subscription: true },
      });
      expect(refunded.status, refunded.text).toBe(200);
      expect(await peersOn(es)).not.toContain(ownerLaptop);
      expect(await peersOn(pt)).not.toContain(ownerPhone);
      await fleetSweep(app);
      expect(await peersOn(es)).toEqual([]);
      expect(await peersOn(pt)).toEqual([]);
    },
    SLOW,
  );
});

describe('a plan change to fewer devices', () => {
  it(
    'takes the newest devices past the new limit off at once, keeps them, and an upgrade brings them back',
    async () => {
      const sk = await createTestServer(app, { country: 'SK', city: 'Bratislava' });
      const lt = await createTestServer(app, { country: 'LT', city: 'Vilnius' });
      const lite = await api(productEndpoints.create, {
        ...asAdmin,
        body: {
          service_id: 1,
          plan: 'standard',
          name: 'Lite, 1 month',
          description: 'Two devices',
          amount: 999,
          amount_old: null,
          currency: 'USD',
          interval: 'month',
          interval_count: 1,
          onetime: false,
          visible: true,
          disabled: false,
          sort: 900,
          as_monthly_rate: false,
          discounted_badge: false,
          as_most_selected: false,
          additional: false,
          includable: false,
          additional_product: null,
          family_seats: 0,
          device_limit: 2,
        },
      });
      expect(lite.status, lite.text).toBe(201);
      const { customer } = await payingCustomer('1 month');
      // Oldest first: the first two stay, the two newest wait.
      const first = await addDevice(customer, 'SK', 'First');
      const second = await addDevice(customer, 'LT', 'Second');
      const third = await addDevice(customer, 'SK', 'Third');
      const fourth = await addDevice(customer, 'LT', 'Fourth');
      expect(await peersOn(sk)).toEqual(sorted(first, third));
      expect(await peersOn(lt)).toEqual(sorted(second, fourth));

      const skTold = await watch(sk);
      const ltTold = await watch(lt);
      const changed = await api(billingEndpoints.change, {
        cookie: customer.cookie,
        body: { product_id: lite.data.product.product_id, idempotency_key: randomUUID() },
      });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.data.status).toBe('completed');
      // No sweep ran: billing's listener applied it inside the change's request.
      expect(await peersOn(sk)).toEqual([first]);
      expect(await peersOn(lt)).toEqual([second]);
      await skTold();
      await ltTold();
      const list = await api(vpnEndpoints.devices, { cookie: customer.cookie });
      expect(list.data.device_limit).toBe(2);
      expect(list.data.access.active).toBe(true);
      expect(
        Object.fromEntries(list.data.items.map((item) => [item.public_key, item.blocked_by])),
      ).toEqual({
        [first]: null,
        [second]: null,
        [third]: 'device_limit',
        [fourth]: 'device_limit',
      });

      const skBack = await watch(sk);
      const ltBack = await watch(lt);
      const upgraded = await api(billingEndpoints.change, {
        cookie: customer.cookie,
        body: { product_id: (await shop.plan('1 month')).id, idempotency_key: randomUUID() },
      });
      expect(upgraded.status, upgraded.text).toBe(200);
      expect(await peersOn(sk)).toEqual(sorted(first, third));
      expect(await peersOn(lt)).toEqual(sorted(second, fourth));
      await skBack();
      await ltBack();
    },
    SLOW,
  );
});

describe('how soon the nodes hear of it', () => {
  const sweepJob = SCHEDULED_JOBS.find((job) => job.run === fleetSweep) as ScheduledJob;

  it('sweeps often enough that a peer leaves within a minute, woken or not', () => {
    expect(sweepJob?.name).toBe('vpn-fleet-sweep');
    expect(sweepJob.firstRunMs).toBeLessThanOrEqual(sweepJob.everyMs);
    // The next run after the change, then at worst a poll in a process nobody woke.
    expect(sweepJob.everyMs + POLL_WAIT_MS).toBeLessThan(60_000);
  });

  it(
    'takes a deactivated customer’s peer off with nothing but the scheduled job running',
    async () => {
      let runs = 0;
      // The product's own job on its own timer; only counted, so the test knows it has run.
      const counted: ScheduledJob = {
        ...sweepJob,
        run: async (on) => {
          await sweepJob.run(on);
          runs += 1;
        },
      };
      const { app: live } = await createTestApp({}, undefined, {
        jobs: [counted],
        vpn: { pollWaitMs: POLL_WAIT_MS },
      });
      const call = endpointClient(live);
      const staff = await signedInUser(live, { role: 'ADMIN' });
      const server = await createTestServer(live, { country: 'CY', city: 'Nicosia' });
      const customer = await signedInUser(live);
      await grantAccess(live, customer.user.id);
      const laptop = await addDevice(customer, 'CY', 'Laptop', live);
      expect(await peersOn(server, live)).toEqual([laptop]);
      // Past the first (full) run: the change is found the way most runs find it.
      await until(() => runs >= 1, 'the first scheduled sweep', 30_000);

      const started = Date.now();
      const gone = await call(customerEndpoints.delete, {
        cookie: staff.cookie,
        body: { user_id: customer.user.id, password: TEST_PASSWORD },
      });
      expect(gone.status, gone.text).toBe(200);
      // The agent's loop: wait at the version it has, take the new list when it changes.
      let { version } = (await call(n.peers, { headers: server.authorization, query: {} })).data;
      let peers = [laptop];
      while (peers.includes(laptop) && Date.now() - started < 60_000) {
        const answer = await call(n.peers, { headers: server.authorization, query: { version } });
        expect(answer.status, answer.text).toBe(200);
        if (answer.data.changed) {
          version = answer.data.version;
          peers = answer.data.peers.map((peer) => peer.public_key);
        }
      }
      expect(peers).toEqual([]);
      expect(Date.now() - started).toBeLessThan(60_000);
    },
    SLOW,
  );
});
