import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/index.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../test/test-users.ts';

const { app } = await createTestApp();
const call = apiClient(app);

// Any password-confirmed action will do: turning two-factor off checks the password first.
const CONFIRMED_ACTION = '/api/account/v1/profile/two-factor-authentication/disable';
const LIMIT = CREDENTIAL_LIMITS.passwordCheckPerAccount.limit;

describe('password confirmation', () => {
  it('checks at most the limit of parallel wrong passwords', async () => {
    const user = await createUser(app.db);
    const cookie = await signIn(call, user.email);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        call('POST', CONFIRMED_ACTION, { cookie, body: { password: 'Wr0ng#guess!' } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - LIMIT);
    const failures = await app.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'account.password_check_failed'), eq(auditLog.actorId, user.id)),
      );
    expect(failures).toHaveLength(LIMIT);
    // Refused unchecked: even the right password waits for the window.
    const right = await call('POST', CONFIRMED_ACTION, {
      cookie,
      body: { password: TEST_PASSWORD },
    });
    expect(right.status).toBe(429);
  });

  it('does not count the right password', async () => {
    const user = await createUser(app.db);
    const cookie = await signIn(call, user.email);
    for (let attempt = 0; attempt < LIMIT + 2; attempt++) {
      const answer = await call('POST', CONFIRMED_ACTION, {
        cookie,
        body: { password: TEST_PASSWORD },
      });
      // Past the password, the action itself: two-factor was never on.
      expect(answer.status).toBe(409);
    }
    const wrong = await call('POST', CONFIRMED_ACTION, {
      cookie,
      body: { password: 'Wr0ng#guess!' },
    });
    expect(wrong.status).toBe(422);
  });
});
