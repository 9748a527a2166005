import { afterAll, describe, expect, it } from 'vitest';
import { vpnEndpoints } from '#shared/contracts/vpn.ts';
import { nodeEndpoints } from '#shared/contracts/vpn-node.ts';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { describeWithRedis } from '../../test/test-services.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { createTestServer, grantAccess, wireGuardKeyPair } from '../../test/vpn-kit.ts';
import { PeerSignal } from './peer-signal.ts';

describe('the peer signal', () => {
  it('wakes the polls of a server once, and not those of another', async () => {
    const signal = new PeerSignal();
    const mine = signal.arm(1, 5_000);
    const other = signal.arm(2, 50);
    signal.notify([1, 1]);
    expect(await mine.done).toBe(true);
    expect(await other.done).toBe(false);
    expect(signal.waiting).toBe(0);
  });

  it('answers every waiting poll when the process closes', async () => {
    const signal = new PeerSignal();
    const polls = [signal.arm(1, 5_000), signal.arm(3, 5_000)];
    signal.releaseAll();
    expect(await Promise.all(polls.map((poll) => poll.done))).toEqual([true, true]);
  });
});

// Two API processes on one database and one Redis: a node's poll waiting on A hears of a
// device added through B at once, not when its wait ends.
describeWithRedis('across processes', async (url) => {
  const database = await createTestDatabase();
  const start = async () => {
    const app = await buildApp(testConfig({ REDIS_URL: url }), {
      database,
      jobs: [],
      vpn: { pollWaitMs: 20_000 },
    });
    await app.ready();
    return app;
  };
  const a = await start();
  const b = await start();
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.close();
  });

  it('wakes a poll on A when a device is added through B', async () => {
    const server = await createTestServer(a, { country: 'MT', city: 'Valletta' });
    const customer = await signedInUser(a);
    await grantAccess(a, customer.user.id);
    const onA = endpointClient(a);
    const first = await onA(nodeEndpoints.peers, { headers: server.authorization });
    const started = Date.now();
    const waiting = onA(nodeEndpoints.peers, {
      headers: server.authorization,
      query: { version: first.data.version },
    });
    const added = await endpointClient(b)(vpnEndpoints.create, {
      cookie: customer.cookie,
      body: { name: 'Laptop', location: 'MT', public_key: wireGuardKeyPair().publicKey },
    });
    expect(added.status, added.text).toBe(201);
    const answer = await waiting;
    expect(answer.data.changed).toBe(true);
    expect(answer.data.peers).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
