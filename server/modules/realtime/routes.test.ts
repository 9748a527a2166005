import { describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser, signIn } from '../../test/test-users.ts';

const { app } = await createTestApp();
const call = apiClient(app);
const AUTH = '/api/all/v1/broadcasting/auth';

describe('broadcasting auth (§7)', () => {
  it("authorises a user for their own system-events presence channel, signed by the app's secret", async () => {
    const user = await createUser(app.db, { name: 'Nina' });
    const cookie = await signIn(call, user.email);
    const channel = `presence-system-events.${user.id}`;
    const answer = await call('POST', AUTH, {
      cookie,
      body: { socket_id: '1234.5678', channel_name: channel },
    });
    expect(answer.status).toBe(200);
    const expected = app.realtime.authorize('1234.5678', channel, {
      user_id: String(user.id),
      user_info: { name: 'Nina' },
    });
    expect(answer.body).toEqual(expected);
    expect(answer.body.auth).toMatch(new RegExp(`^${app.realtime.settings.key}:[0-9a-f]{64}$`));
    expect(JSON.parse(answer.body.channel_data as string)).toEqual({
      user_id: String(user.id),
      user_info: { name: 'Nina' },
    });
  });

  it("refuses another user's channel and any other channel", async () => {
    const user = await createUser(app.db);
    const other = await createUser(app.db);
    const cookie = await signIn(call, user.email);
    for (const channel of [
      `presence-system-events.${other.id}`,
      `private-system-events.${user.id}`,
      'presence-admins',
    ]) {
      const answer = await call('POST', AUTH, {
        cookie,
        body: { socket_id: '1.2', channel_name: channel },
      });
      expect(answer.status).toBe(403);
    }
  });

  it('lets any signed-in person into the fleet’s locations channel, and only staff with the servers permission into its staff channel', async () => {
    const join = async (role: 'USER' | 'AUTHOR' | 'ADMIN', channel: string) => {
      const person = await createUser(app.db, { role });
      const cookie = await signIn(call, person.email);
      return call('POST', AUTH, { cookie, body: { socket_id: '1.2', channel_name: channel } });
    };
    const locations = await join('USER', 'private-fleet-locations');
    expect(locations.status).toBe(200);
    expect(locations.body).toEqual(app.realtime.authorize('1.2', 'private-fleet-locations'));
    expect((await join('ADMIN', 'private-fleet-staff')).status).toBe(200);
    expect((await join('AUTHOR', 'private-fleet-staff')).status).toBe(403);
    expect((await join('USER', 'private-fleet-staff')).status).toBe(403);
  });

  it('needs a session and a well-formed socket id', async () => {
    const anonymous = await call('POST', AUTH, {
      body: { socket_id: '1.2', channel_name: 'presence-system-events.1' },
    });
    expect(anonymous.status).toBe(401);
    const user = await createUser(app.db);
    const cookie = await signIn(call, user.email);
    const bad = await call('POST', AUTH, {
      cookie,
      body: { socket_id: 'abc', channel_name: `presence-system-events.${user.id}` },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors_validation).toEqual({ socket_id: ['input_errors.field_is_invalid'] });
  });
});
