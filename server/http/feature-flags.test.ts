import { describe, expect, it } from 'vitest';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import { customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { authEndpoints } from '#shared/contracts/auth.ts';
import { oauthEndpoints } from '#shared/contracts/oauth.ts';
import { endpointClient } from '../test/api-client.ts';
import { createTestApp } from '../test/test-app.ts';
import { signedInUser } from '../test/test-sessions.ts';

// §1 a flag that is off takes its calls away: they are not there (the API's JSON 404).
const { app } = await createTestApp({ FEATURES: 'billing,referral,family_sharing' });
const api = endpointClient(app);
const admin = await signedInUser(app, { role: 'ADMIN' });

describe('with users, logging and auth switched off', () => {
  it('has no customers calls', async () => {
    const answer = await api(customerEndpoints.list, { cookie: admin.cookie });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found' });
  });

  it('has no audit-log calls', async () => {
    expect((await api(auditLogEndpoints.list, { cookie: admin.cookie })).status).toBe(404);
  });

  it('has no sign-up and no social sign-in, but sign-in stays', async () => {
    const signUp = await api(authEndpoints.signUp, {
      body: {
        email: 'x@example.com',
        password: 'Strong#pass123',
        password_confirmation: 'Strong#pass123',
      },
    });
    expect(signUp.status).toBe(404);
    expect((await api(oauthEndpoints.providers)).status).toBe(404);
    const signIn = await api(authEndpoints.signIn, {
      body: { email: admin.user.email, password: 'Wrong#pass123' },
    });
    expect(signIn.status).toBe(401);
  });
});
