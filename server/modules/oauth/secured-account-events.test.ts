import { afterAll, expect, it } from 'vitest';
import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import { apiClient } from '../../test/api-client.ts';
import { startTestOpenIdProvider } from '../../test/test-openid-provider.ts';
import { connectClient, connected, nextEvent, startApp } from '../../test/test-realtime.ts';
import { OAUTH_BASE, socialSignIn } from '../../test/test-social-sign-in.ts';
import { createUser, signIn } from '../../test/test-users.ts';

// §4 live events when a social sign-in secures an account whose address nobody had proved:
// its pages hear that the user changed and that their sessions ended.

const APP_URL = 'http://localhost:3000';
const google = await startTestOpenIdProvider({
  redirectUri: `${APP_URL}${OAUTH_BASE}/callback/google`,
});
afterAll(() => google.close());
const { app, port } = await startApp({
  APP_URL,
  OAUTH_GOOGLE_CLIENT_ID: google.clientId,
  OAUTH_GOOGLE_CLIENT_SECRET: google.clientSecret,
  OAUTH_GOOGLE_ISSUER: google.issuer,
});
const call = apiClient(app);

it('publishes Users\\UserUpdated and Users\\DeviceDeleted for the sessions it ends', async () => {
  const squatter = await createUser(app.db, { emailVerifiedAt: null });
  const cookie = await signIn(call, squatter.email);
  const devices = await call('GET', '/api/account/v1/devices/list', { cookie });
  const [session] = devices.body.items as { id: string }[];

  const client = connectClient(port, { presence: { user_id: String(squatter.id) } });
  await connected(client);
  const channel = client.subscribe(systemEventsChannel(squatter.id));
  await nextEvent(channel, 'pusher:subscription_succeeded');
  const updated = nextEvent<{ user: Record<string, unknown> }>(
    channel,
    REALTIME_EVENTS.userUpdated,
  );
  const deleted = nextEvent<{ device_id: string }>(channel, REALTIME_EVENTS.deviceDeleted);

  google.addPerson({ sub: 'owner-1', email: squatter.email, email_verified: true });
  const owner = await socialSignIn(app, call, google, 'owner-1');
  expect(owner.body.user).toMatchObject({ id: squatter.id });

  expect((await updated).user).toMatchObject({
    id: squatter.id,
    activated: true,
    has_password: false,
  });
  expect(await deleted).toEqual({ device_id: session?.id });
  const after = await call('POST', '/api/account/v1/users/get-auth-user', { cookie });
  expect(after.status).toBe(401);
});
