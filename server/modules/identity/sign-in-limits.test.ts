import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { describeWithRedis } from '../../test/test-services.ts';
import { createUser, TEST_PASSWORD } from '../../test/test-users.ts';

const SIGN_IN = '/api/public/v1/auth/sign-in';
const LIMIT = CREDENTIAL_LIMITS.signInPerAccount.limit;
const PARALLEL = 12;

// Client addresses of this run alone: a persistent TEST_REDIS_URL still holds the per-IP
// counts of earlier runs (and of other files' calls) within the window.
const block = randomInt(256);
let addresses = 0;
const ownAddress = () => {
  addresses += 1;
  return `198.18.${block}.${addresses}`;
};

/**
 * Wrong passwords for one account, all at once, each from its own address (so the per-IP
 * limit stays out of it): only LIMIT of them may reach argon2, the others are refused
 * unchecked. A check before argon2 and a count after it would let all of them through.
 */
function parallelGuesses(app: App) {
  return async () => {
    const call = apiClient(app);
    const user = await createUser(app.db);

    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        call('POST', SIGN_IN, {
          ip: ownAddress(),
          body: { email: user.email, password: 'Wr0ng#guess!' },
        }),
      ),
    );

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(PARALLEL - LIMIT);
    const refused = answers.find((answer) => answer.status === 429);
    expect(refused?.body).toEqual({
      code: 'too_many_requests',
      errors_info: ['errors.too_many_requests'],
    });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    // Each evaluated guess is audited once; the refused ones never got that far.
    const failures = await app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.sign_in_failed'), eq(auditLog.actorId, user.id)));
    expect(failures).toHaveLength(LIMIT);
    // The refused ones gave their slots back; the owner is locked out only until the window
    // ends, even with the right password.
    const owner = await call('POST', SIGN_IN, {
      ip: ownAddress(),
      body: { email: user.email, password: TEST_PASSWORD },
    });
    expect(owner.status).toBe(429);
  };
}

describe('parallel wrong passwords, counters in memory', async () => {
  const { app } = await createTestApp();
  it(`evaluates at most ${LIMIT} of ${PARALLEL}`, parallelGuesses(app));
});

describeWithRedis('parallel wrong passwords, counters in Redis', async (url) => {
  const { app } = await createTestApp({ REDIS_URL: url });
  it(`evaluates at most ${LIMIT} of ${PARALLEL}`, parallelGuesses(app));
});
