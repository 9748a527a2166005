import { describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../test/test-users.ts';

const { app } = await createTestApp();
const db = app.db;
const call = apiClient(app);

const DEVICES = '/api/account/v1/devices';
const me = (cookie: string) => call('POST', '/api/account/v1/users/get-auth-user', { cookie });

interface DeviceJson {
  id: string;
  ip: string;
  user_agent: string;
  last_login_at: string;
  isCurrent: boolean;
}

/** One user signed in on three browsers; the last one is "this" browser. */
async function threeDevices() {
  const user = await createUser(db);
  const phone = await signIn(call, user.email, TEST_PASSWORD, {
    ip: '198.51.100.1',
    userAgent: 'Phone/1.0',
  });
  const laptop = await signIn(call, user.email, TEST_PASSWORD, {
    ip: '198.51.100.2',
    userAgent: 'Laptop/2.0',
  });
  const current = await signIn(call, user.email, TEST_PASSWORD, {
    ip: '198.51.100.3',
    userAgent: 'Desk/3.0',
  });
  return { user, phone, laptop, current };
}

async function listDevices(cookie: string): Promise<DeviceJson[]> {
  const answer = await call('GET', `${DEVICES}/list`, { cookie });
  expect(answer.status).toBe(200);
  return answer.body.items as DeviceJson[];
}

describe('devices', () => {
  it('lists the signed-in browsers, the current one first (§4)', async () => {
    const { current } = await threeDevices();
    const devices = await listDevices(current);
    expect(devices).toHaveLength(3);
    expect(devices[0]).toMatchObject({
      isCurrent: true,
      user_agent: 'Desk/3.0',
      ip: '198.51.100.3',
    });
    expect(devices.slice(1).map((d) => d.user_agent)).toEqual(['Laptop/2.0', 'Phone/1.0']);
    expect(devices.slice(1).every((d) => !d.isCurrent)).toBe(true);
    expect(Object.keys(devices[0] ?? {}).sort()).toEqual(
      ['id', 'ip', 'isCurrent', 'last_login_at', 'user_agent'].sort(),
    );
  });

  it('logs one device out after the password; that session dies', async () => {
    const { phone, current } = await threeDevices();
    const target = (await listDevices(current)).find((d) => d.user_agent === 'Phone/1.0');
    const wrong = await call('POST', `${DEVICES}/logout-by-device-id`, {
      cookie: current,
      body: { id: target?.id, password: 'Wr0ng#password' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors_validation).toEqual({ password: ['errors.password_incorrect'] });
    expect((await me(phone)).status).toBe(200);

    const done = await call('POST', `${DEVICES}/logout-by-device-id`, {
      cookie: current,
      body: { id: target?.id, password: TEST_PASSWORD },
    });
    expect(done.status).toBe(200);
    expect((await me(phone)).status).toBe(401);
    expect((await me(current)).status).toBe(200);
    expect(await listDevices(current)).toHaveLength(2);
  });

  it("treats another user's device as unknown", async () => {
    const a = await threeDevices();
    const b = await threeDevices();
    const theirs = (await listDevices(b.current))[1];
    const answer = await call('POST', `${DEVICES}/logout-by-device-id`, {
      cookie: a.current,
      body: { id: theirs?.id, password: TEST_PASSWORD },
    });
    expect(answer.status).toBe(404);
    expect(answer.body.errors_info).toEqual(['errors.device_not_found']);
    expect((await me(b.phone)).status).toBe(200);
    expect((await me(b.laptop)).status).toBe(200);
  });

  it('checks the id and the password field', async () => {
    const { current } = await threeDevices();
    const answer = await call('POST', `${DEVICES}/logout-by-device-id`, {
      cookie: current,
      body: { id: 'not-a-uuid' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({
      id: ['input_errors.field_is_invalid'],
      password: ['input_errors.field_is_required'],
    });
  });

  it('logs the other devices out, keeping this one', async () => {
    const { phone, laptop, current } = await threeDevices();
    const answer = await call('POST', `${DEVICES}/logout-other-devices`, {
      cookie: current,
      body: { password: TEST_PASSWORD },
    });
    expect(answer.status).toBe(200);
    expect((await me(phone)).status).toBe(401);
    expect((await me(laptop)).status).toBe(401);
    expect(await listDevices(current)).toHaveLength(1);
  });

  it('logs every device out, this one too, and clears its cookie', async () => {
    const { phone, current } = await threeDevices();
    const answer = await call('POST', `${DEVICES}/logout-all-devices`, {
      cookie: current,
      body: { password: TEST_PASSWORD },
    });
    expect(answer.status).toBe(200);
    expect(answer.clearedCookie).toBe(true);
    expect((await me(phone)).status).toBe(401);
    expect((await me(current)).status).toBe(401);
  });

  it('pages the list, the current device at the top of the first page (§3, §4)', async () => {
    const { phone } = await threeDevices();
    const all = await call('GET', `${DEVICES}/list`, { cookie: phone });
    expect(all.body.controls).toEqual({ page: 1, per_page: 20, total: 3, last_page: 1 });
    const page = async (n: number) => {
      const answer = await call('GET', `${DEVICES}/list?page=${n}&per_page=2`, { cookie: phone });
      expect(answer.status).toBe(200);
      return answer.body as { items: DeviceJson[]; controls: unknown };
    };
    const first = await page(1);
    // The phone signed in first, so it would be last by date; being this browser, it leads.
    expect(first.items.map((d) => [d.user_agent, d.isCurrent])).toEqual([
      ['Phone/1.0', true],
      ['Desk/3.0', false],
    ]);
    expect(first.controls).toEqual({ page: 1, per_page: 2, total: 3, last_page: 2 });
    const second = await page(2);
    expect(second.items.map((d) => d.user_agent)).toEqual(['Laptop/2.0']);
    expect(second.controls).toEqual({ page: 2, per_page: 2, total: 3, last_page: 2 });
    expect((await page(3)).items).toEqual([]);
  });

  it.each([
    ['per_page=101', 'per_page'],
    ['per_page=0', 'per_page'],
    ['page=0', 'page'],
    ['page=x', 'page'],
  ])('refuses the paging %s', async (query, field) => {
    const { current } = await threeDevices();
    const answer = await call('GET', `${DEVICES}/list?${query}`, { cookie: current });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors_validation as object)).toEqual([field]);
  });

  it('needs a session', async () => {
    expect((await call('GET', `${DEVICES}/list`)).status).toBe(401);
  });
});
