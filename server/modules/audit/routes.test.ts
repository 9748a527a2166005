import { describe, expect, it } from 'vitest';
import { auditLogEndpoints as e } from '#shared/contracts/admin/audit-logs.ts';
import { countryEndpoints } from '#shared/contracts/admin/countries.ts';
import { auditLog } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { createUser } from '../../test/test-users.ts';

// §2 /admin/logs: the audit-log viewer, and §7 /countries/get beside it.
const { app } = await createTestApp();
const api = endpointClient(app);
const admin = await signedInUser(app, { role: 'ADMIN', name: 'Viewer Admin' });
const as = { cookie: admin.cookie };

const actor = await createUser(app.db, { name: 'Zelda Actor', email: 'zelda.actor@example.com' });
const subject = await createUser(app.db);
const at = (day: string) => new Date(`${day}T12:00:00Z`);
await app.db.insert(auditLog).values([
  {
    action: 'auth.signed_in',
    actorId: actor.id,
    subjectType: 'user',
    subjectId: String(actor.id),
    createdAt: at('2026-03-01'),
  },
  {
    action: 'customers.blocked',
    actorId: actor.id,
    subjectType: 'user',
    subjectId: String(subject.id),
    createdAt: at('2026-03-02'),
    data: { reason: 'spam' },
  },
  {
    action: 'auth.signed_in',
    actorId: subject.id,
    subjectType: 'user',
    subjectId: String(subject.id),
    createdAt: at('2026-03-03'),
    ip: '198.51.100.7',
    userAgent: 'Test browser',
  },
  {
    action: 'account.deleted',
    actorId: null,
    subjectType: 'user',
    subjectId: '424242',
    createdAt: at('2026-03-04'),
  },
]);

describe('the audit-log viewer', () => {
  it('lists entries newest first, with who did them', async () => {
    const answer = await api(e.list, { ...as, query: { from: '2026-03-01', to: '2026-03-04' } });
    expect(answer.status).toBe(200);
    expect(answer.data.items.map((entry) => entry.action)).toEqual([
      'account.deleted',
      'auth.signed_in',
      'customers.blocked',
      'auth.signed_in',
    ]);
    expect(answer.data.items[0]?.actor).toBeNull();
    expect(answer.data.items[2]?.actor).toEqual({
      id: actor.id,
      email: actor.email,
      name: 'Zelda Actor',
    });
  });

  it('filters by actor (id, e-mail or name), subject, action, a customer and days', async () => {
    const actions = (query: Record<string, string | number>) =>
      api(e.list, { ...as, query: { from: '2026-03-01', to: '2026-03-04', ...query } }).then(
        (answer) => answer.data.items.map((entry) => entry.action),
      );
    expect(await actions({ actor_id: actor.id })).toEqual(['customers.blocked', 'auth.signed_in']);
    expect(await actions({ actor: 'zelda' })).toEqual(['customers.blocked', 'auth.signed_in']);
    expect(await actions({ subject_id: String(subject.id) })).toEqual([
      'auth.signed_in',
      'customers.blocked',
    ]);
    expect(await actions({ action: 'customers.blocked' })).toEqual(['customers.blocked']);
    expect(await actions({ user_id: subject.id })).toEqual(['auth.signed_in', 'customers.blocked']);
    expect(await actions({ from: '2026-03-02', to: '2026-03-03' })).toEqual([
      'auth.signed_in',
      'customers.blocked',
    ]);
  });

  it('pages with controls', async () => {
    const answer = await api(e.list, {
      ...as,
      query: { from: '2026-03-01', to: '2026-03-04', per_page: 3, page: 2 },
    });
    expect(answer.data.items).toHaveLength(1);
    expect(answer.data.controls).toEqual({ page: 2, per_page: 3, total: 4, last_page: 2 });
  });

  it('shows one entry whole, and 404 for an unknown one', async () => {
    const list = await api(e.list, {
      ...as,
      query: { action: 'customers.blocked', actor_id: actor.id },
    });
    const id = list.data.items[0]?.id ?? 0;
    const answer = await api(e.view, { ...as, query: { id } });
    expect(answer.data.entry).toMatchObject({
      action: 'customers.blocked',
      data: { reason: 'spam' },
      subject_id: String(subject.id),
    });
    expect((await api(e.view, { ...as, query: { id: 9_999_999 } })).status).toBe(404);
  });

  it('refuses a bad day, an unknown action or a non-numeric id with 422 under the field', async () => {
    for (const [field, query] of [
      ['from', { from: '2026-02-30' }],
      ['to', { to: 'yesterday' }],
      ['action', { action: 'drop.table' }],
      ['actor_id', { actor_id: 'x' }],
    ] as const) {
      const answer = await api(e.list, { ...as, query: query as never });
      expect(answer.status, field).toBe(422);
      expect(Object.keys(answer.body.errors_validation as object)).toEqual([field]);
    }
  });
});

describe('the countries', () => {
  it('are all there, named and sorted in the language asked for', async () => {
    const ru = await api(countryEndpoints.list, { ...as, query: { lang: 'ru' } });
    expect(ru.data.items).toHaveLength(249);
    expect(ru.data.items.find((country) => country.code === 'DE')?.name).toBe('Германия');
    const names = ru.data.items.map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('ru').compare));
    const en = await api(countryEndpoints.list, { ...as });
    expect(en.data.items.find((country) => country.code === 'NL')?.name).toBe('Netherlands');
  });

  it('refuses a language the product does not speak with 422 under lang', async () => {
    const answer = await api(countryEndpoints.list, { ...as, query: { lang: 'de' as 'en' } });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ lang: ['input_errors.field_is_invalid'] });
  });
});
