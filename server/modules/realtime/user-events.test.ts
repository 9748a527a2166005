import { describe, expect, it } from 'vitest';
import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import {
  connectClient,
  connected,
  nextEvent,
  startApp,
} from '../../platform/realtime/test-realtime.ts';
import { apiClient } from '../../test/api-client.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../test/test-users.ts';

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
