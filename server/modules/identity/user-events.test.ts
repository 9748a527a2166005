import { Secret, TOTP } from 'otpauth';
import type { Channel } from 'pusher-js';
import { describe, expect, it } from 'vitest';
import { encodeChallenge } from '#shared/challenge.ts';
import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import { type ApiAnswer, apiClient } from '../../test/api-client.ts';
import { connectClient, connected, nextEvent, startApp } from '../../test/test-realtime.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../test/test-users.ts';
import { issueToken } from './one-time-tokens.ts';

// §4 Live events from the services, through the built-in server to pusher-js.
const { app, port } = await startApp();
const call = apiClient(app);

async function subscribedClient(userId: number) {
  const client = connectClient(port, { presence: { user_id: String(userId) } });
  await connected(client);
  const channel = client.subscribe(systemEventsChannel(userId));
  await nextEvent(channel, 'pusher:subscription_succeeded');
  return channel;
}

type LiveUser = {
  id: number;
  activated: boolean;
  delete_at: string | null;
  two_factor_authentication: boolean;
  two_factor_authentication_confirmed: boolean;
};

/** The user of the next Users\UserUpdated on the channel, once `action` has run. */
async function updatedBy(channel: Channel, action: () => Promise<ApiAnswer>) {
  const event = nextEvent<{ user: LiveUser }>(channel, REALTIME_EVENTS.userUpdated);
  const answer = await action();
  expect(answer.status).toBe(200);
  return { ...(await event).user, answer };
}

const TWO_FACTOR = '/api/account/v1/profile/two-factor-authentication';

describe('user events', () => {
  it('publishes Users\\UserUpdated with the presented user when the profile changes', async () => {
    const user = await createUser(app.db);
    const cookie = await signIn(call, user.email);
    const channel = await subscribedClient(user.id);
    const event = nextEvent<{ user: { name: string; id: number } }>(
      channel,
      REALTIME_EVENTS.userUpdated,
    );
    await call('POST', '/api/account/v1/profile/update', {
      cookie,
      body: { name: 'Live', username: user.username, email: user.email },
    });
    expect((await event).user).toMatchObject({ id: user.id, name: 'Live' });
  });

  it('publishes Users\\UserUpdated when the e-mail address is verified', async () => {
    const user = await createUser(app.db, { emailVerifiedAt: null });
    const cookie = await signIn(call, user.email);
    const channel = await subscribedClient(user.id);
    const token = await issueToken(app.db, 'email_verify', user.id, user.email);
    const verified = await updatedBy(channel, () =>
      call('POST', '/api/all/v1/auth/email/verify', {
        cookie,
        body: { challenge: encodeChallenge({ email: user.email, token }) },
      }),
    );
    expect(verified).toMatchObject({ id: user.id, activated: true });
  });

  it('publishes Users\\UserUpdated at each step of two-factor: enable, confirm, disable', async () => {
    const user = await createUser(app.db);
    const cookie = await signIn(call, user.email);
    const channel = await subscribedClient(user.id);

    const enabled = await updatedBy(channel, () =>
      call('POST', `${TWO_FACTOR}/enable`, { cookie }),
    );
    expect(enabled).toMatchObject({
      id: user.id,
      two_factor_authentication: true,
      two_factor_authentication_confirmed: false,
    });

    const qr = await call('GET', `${TWO_FACTOR}/get-qr`, { cookie });
    const totp = new TOTP({ secret: Secret.fromBase32(qr.body.code as string), period: 30 });
    const confirmed = await updatedBy(channel, () =>
      call('POST', `${TWO_FACTOR}/confirm`, { cookie, body: { code: totp.generate() } }),
    );
    expect(confirmed).toMatchObject({ two_factor_authentication_confirmed: true });

    // Confirming may renew the session's token.
    const renewed = confirmed.answer.cookie ?? cookie;
    const disabled = await updatedBy(channel, () =>
      call('POST', `${TWO_FACTOR}/disable`, {
        cookie: renewed,
        body: { password: TEST_PASSWORD },
      }),
    );
    expect(disabled).toMatchObject({
      two_factor_authentication: false,
      two_factor_authentication_confirmed: false,
    });
  });

  it('publishes Users\\UserUpdated when the account is deactivated and reactivated', async () => {
    const user = await createUser(app.db);
    const cookie = await signIn(call, user.email);
    const channel = await subscribedClient(user.id);

    const deactivated = await updatedBy(channel, () =>
      call('POST', '/api/account/v1/profile/delete', {
        cookie,
        body: { password: TEST_PASSWORD },
      }),
    );
    expect(deactivated.delete_at).toEqual(expect.any(String));
    expect(new Date(deactivated.delete_at ?? 0).getTime()).toBeGreaterThan(Date.now());

    const reactivated = await updatedBy(channel, () =>
      call('POST', '/api/account/v1/profile/delete/cancel', { cookie }),
    );
    expect(reactivated).toMatchObject({ id: user.id, delete_at: null });
  });

  it('publishes Users\\DeviceDeleted to every page of the user when a device is logged out', async () => {
    const user = await createUser(app.db);
    const phone = await signIn(call, user.email);
    const desk = await signIn(call, user.email);
    const first = await subscribedClient(user.id);
    const second = await subscribedClient(user.id);
    const devices = await call('GET', '/api/account/v1/devices/list', { cookie: desk });
    const target = (devices.body.items as { id: string; isCurrent: boolean }[]).find(
      (device) => !device.isCurrent,
    );
    const onFirst = nextEvent<{ device_id: string }>(first, REALTIME_EVENTS.deviceDeleted);
    const onSecond = nextEvent<{ device_id: string }>(second, REALTIME_EVENTS.deviceDeleted);
    await call('POST', '/api/account/v1/devices/logout-by-device-id', {
      cookie: desk,
      body: { id: target?.id, password: TEST_PASSWORD },
    });
    expect(await onFirst).toEqual({ device_id: target?.id });
    expect(await onSecond).toEqual({ device_id: target?.id });
    expect(
      (await call('POST', '/api/account/v1/users/get-auth-user', { cookie: phone })).status,
    ).toBe(401);
  });
});
