import { and, eq, gt, max } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { encodeChallenge } from '#shared/challenge.ts';
import { auditLog } from '../db/schema/index.ts';
import { createTestApp } from '../test/test-app.ts';
import { RawClient, startRealtimeOnly, upgradeStatus } from '../test/test-realtime.ts';

// One load balancer in front (TRUST_PROXY=1): it appends the address it was reached from to
// whatever X-Forwarded-For the client sent, so only the last entry is true. A client that
// prepends entries must not get a new address, neither for the HTTP limits nor for the cap
// on sockets per address.

const forwarded = (chain: string) => ({ 'x-forwarded-for': chain });

describe('HTTP requests behind one proxy', async () => {
  const { app } = await createTestApp({ TRUST_PROXY: '1' });
  const reset = (remoteAddress: string, chain: string) =>
    app.inject({
      method: 'POST',
      url: '/api/public/v1/auth/password/reset',
      remoteAddress,
      headers: { 'x-requested-with': 'fetch', ...forwarded(chain) },
      payload: {
        challenge: encodeChallenge({ email: 'probe@example.com', token: 'x'.repeat(43) }),
        password: 'N3w#password!',
        password_confirmation: 'N3w#password!',
      },
    });
  /**
   * The last audit row's id: rows after it are this test's. (A time would not do: the
   * database's clock has microseconds, so a row of the test before can fall in the same
   * millisecond as a JavaScript date taken after it.)
   */
  const lastAuditId = async () => {
    const [row] = await app.db.select({ id: max(auditLog.id) }).from(auditLog);
    return row?.id ?? 0;
  };
  /** The addresses the refused links were recorded from, after audit row `since`. */
  const recordedFrom = async (since: number) =>
    (
      await app.db
        .select({ ip: auditLog.ip })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'auth.link_refused'), gt(auditLog.id, since)))
        .orderBy(auditLog.id)
    ).map((row) => row.ip);

  it('takes the address the proxy wrote, whatever the client put before it', async () => {
    const since = await lastAuditId();
    const statuses: number[] = [];
    // Reset submissions allow 20 per address in 15 minutes.
    for (let i = 1; i <= 21; i++) {
      statuses.push((await reset('127.0.0.1', `${i}.${i}.1.1, 2.2.2.2`)).statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(400), 429]);
    expect(await recordedFrom(since)).toEqual(Array(20).fill('2.2.2.2'));
    // Another client behind the same proxy has its own budget.
    expect((await reset('127.0.0.1', '1.1.1.1, 3.3.3.3')).statusCode).toBe(400);
  });

  it('counts a client that reaches the server directly at its own address', async () => {
    const since = await lastAuditId();
    // 2.2.2.2 has spent its budget above: a forged header naming it changes nothing here.
    expect((await reset('203.0.113.50', '2.2.2.2')).statusCode).toBe(400);
    expect(await recordedFrom(since)).toEqual(['203.0.113.50']);
  });
});

describe('websocket upgrades behind one proxy', async () => {
  const { port } = await startRealtimeOnly(
    { limits: { connectionsPerAddress: 2 } },
    { TRUST_PROXY: '1' },
  );

  it('counts the address the proxy wrote against the cap, whatever the client put before it', async () => {
    await RawClient.open(port, undefined, forwarded('1.1.1.1, 2.2.2.2'));
    await RawClient.open(port, undefined, forwarded('9.9.9.9, 2.2.2.2'));
    expect(await upgradeStatus(port, forwarded('5.5.5.5, 2.2.2.2'))).toBe(503);
    expect(await upgradeStatus(port, forwarded('2.2.2.2'))).toBe(503);
    // Another client behind the same proxy is not held back.
    expect(await upgradeStatus(port, forwarded('1.1.1.1, 3.3.3.3'))).toBeUndefined();
  });
});
