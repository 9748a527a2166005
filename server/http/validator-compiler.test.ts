import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { encodeChallenge } from '#shared/challenge.ts';
import { FIELD_IS_INVALID } from '#shared/validation/zod-messages.ts';
import { users } from '../db/schema/index.ts';
import { apiClient } from '../test/api-client.ts';
import { createTestApp } from '../test/test-app.ts';
import { signedInUser } from '../test/test-sessions.ts';
import { unstorableTextPaths } from './validator-compiler.ts';

const NUL = '\u0000';
const PASSWORD = 'N3w#password!';
const PAIR = { password: PASSWORD, password_confirmation: PASSWORD };

describe('unstorableTextPaths', () => {
  it('finds NULs at any depth, in arrays and in keys, and nothing in clean input', () => {
    expect(unstorableTextPaths({ a: 'ok', b: [1, 'ok'], c: { d: true, e: null } })).toEqual([]);
    expect(unstorableTextPaths(`a${NUL}`)).toEqual([[]]);
    expect(unstorableTextPaths({ a: { b: ['x', `y${NUL}`] }, c: NUL })).toEqual([
      ['c'],
      ['a', 'b', 1],
    ]);
    // A bad key is reported at the object that holds it.
    expect(unstorableTextPaths({ [`k${NUL}`]: 1, n: { [NUL]: 2 } })).toEqual([[], ['n']]);
  });

  it('finds lone surrogates, not the pairs that make one character', () => {
    expect(unstorableTextPaths({ a: 'smile \u{1f600}', b: 'é', c: '\ufffd' })).toEqual([]);
    expect(unstorableTextPaths({ a: 'x\ud800', b: ['\udfff'], c: '\udfff\ud800' })).toEqual([
      ['a'],
      ['c'],
      ['b', 0],
    ]);
  });

  it('walks a hundred thousand levels without recursion, and reports a few at most', () => {
    let deep: unknown = NUL;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const [path] = unstorableTextPaths(deep);
    expect(path).toHaveLength(100_000);
    expect(unstorableTextPaths(Array.from({ length: 500 }, () => NUL))).toHaveLength(10);
  });
});

const { app } = await createTestApp();
const call = apiClient(app);

/** The §5 envelope of one invalid field. */
const invalid = (field: string) => ({
  code: 'validation_failed',
  errors_validation: { [field]: [FIELD_IS_INVALID] },
});

// A NUL in a JSON string used to travel to PostgreSQL, which refuses it: 500. One rule in
// the validator compiler now refuses it on every route, under the field's path.
describe('a NUL in any string of the input is refused under its field (422)', () => {
  it('password reset', async () => {
    const answer = await call('POST', '/api/public/v1/auth/password/reset', {
      body: { challenge: `abc${NUL}`, ...PAIR },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalid('challenge'));
  });

  it('two-factor sign-in step', async () => {
    const answer = await call('POST', '/api/public/v1/auth/sign-in/two-factor', {
      body: { challenge: `abc${NUL}def`, code: '123456' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalid('challenge'));
  });

  it('OAuth login', async () => {
    const answer = await call('POST', '/api/public/v1/oauth-client/auth/login', {
      body: { token: `${NUL}token` },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalid('token'));
  });

  it('e-mail verification', async () => {
    const { cookie } = await signedInUser(app, { emailVerifiedAt: null });
    const answer = await call('POST', '/api/all/v1/auth/email/verify', {
      cookie,
      body: { challenge: NUL },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalid('challenge'));
  });

  it('password set', async () => {
    const { cookie } = await signedInUser(app, { passwordHash: null });
    const answer = await call('POST', '/api/all/v1/auth/password/set', {
      cookie,
      body: { challenge: `c${NUL}`, ...PAIR },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalid('challenge'));
  });

  it('profile update: the name, and nothing is saved; without the NUL it is', async () => {
    const { cookie, user } = await signedInUser(app);
    const profile = { username: user.username, email: user.email };
    const answer = await call('POST', '/api/account/v1/profile/update', {
      cookie,
      body: { ...profile, name: `Ann${NUL}` },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalid('name'));
    const [stored] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(stored?.name).toBeNull();

    const clean = await call('POST', '/api/account/v1/profile/update', {
      cookie,
      body: { ...profile, name: 'Ann' },
    });
    expect(clean.status).toBe(200);
  });

  it('reports the path of a nested field, and of fields named like Object members', async () => {
    const { cookie, user } = await signedInUser(app);
    const answer = await call('POST', '/api/account/v1/profile/update', {
      cookie,
      body: { username: user.username, email: user.email, extra: { list: ['ok', NUL] } },
    });
    expect(answer.body).toEqual(invalid('extra.list.1'));
    for (const field of ['toString', 'constructor']) {
      const odd = await call('POST', '/api/account/v1/profile/update', {
        cookie,
        body: { [field]: NUL, username: 'u', email: 'a@b.co' },
      });
      expect(odd.status, field).toBe(422);
      expect(odd.body, field).toEqual(invalid(field));
    }
    // The JSON parser refuses a `__proto__` key outright (400); a query may carry one.
    const proto = await call('GET', '/api/account/v1/devices/list?__proto__=%00', { cookie });
    expect(proto.status).toBe(422);
    expect(proto.body).toEqual(invalid('__proto__'));
  });

  it('a lone surrogate too: not text the database can store', async () => {
    const { cookie, user } = await signedInUser(app);
    const answer = await call('POST', '/api/account/v1/profile/update', {
      cookie,
      body: { username: user.username, email: user.email, name: 'Ann\ud800' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalid('name'));
  });

  it('covers the query and the path parameters too', async () => {
    const { cookie } = await signedInUser(app);
    const query = await call('GET', '/api/account/v1/devices/list?page=%00', { cookie });
    expect(query.status).toBe(422);
    expect(query.body).toEqual(invalid('page'));

    const params = await call('GET', '/api/public/v1/oauth-client/authorize/goo%00gle');
    expect(params.status).toBe(422);
    expect(params.body).toEqual(invalid('provider'));
  });
});

// The rule cannot see inside an e-mailed challenge, which is base64url JSON: the string the
// contract checks is clean. decodeChallenge (shared/challenge.ts) applies the same rule to
// what it decodes, so such a link is a broken one, never text for PostgreSQL.
const base64url = (text: string) =>
  Buffer.from(text).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const TOKEN = 'x'.repeat(43);

describe.each([
  ['a NUL', encodeChallenge({ email: `a${NUL}@example.com`, token: TOKEN })],
  // UTF-8 cannot carry a lone surrogate: it arrives as a JSON escape.
  ['a lone surrogate', base64url(`{"email":"a\\ud800@example.com","token":"${TOKEN}"}`)],
])('%s inside an e-mailed challenge is a broken link', (_what, challenge) => {
  const refused = (answer: { status: number }) => {
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  };

  it('on password reset', async () => {
    refused(
      await call('POST', '/api/public/v1/auth/password/reset', { body: { challenge, ...PAIR } }),
    );
  });

  it('on the two-factor sign-in step', async () => {
    refused(
      await call('POST', '/api/public/v1/auth/sign-in/two-factor', {
        body: { challenge, code: '123456' },
      }),
    );
  });

  it('on OAuth login', async () => {
    refused(
      await call('POST', '/api/public/v1/oauth-client/auth/login', { body: { token: challenge } }),
    );
  });

  it('on e-mail verification', async () => {
    const { cookie } = await signedInUser(app, { emailVerifiedAt: null });
    refused(await call('POST', '/api/all/v1/auth/email/verify', { cookie, body: { challenge } }));
  });

  it('on password set', async () => {
    const { cookie } = await signedInUser(app, { passwordHash: null });
    refused(
      await call('POST', '/api/all/v1/auth/password/set', { cookie, body: { challenge, ...PAIR } }),
    );
  });
});
