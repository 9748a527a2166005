import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { unverifiedAccessPages, userChange } from './user-change.ts';

const user: AuthUser = {
  id: 1,
  name: 'Ann',
  username: 'ann',
  email: 'ann@example.com',
  email_tmp: null,
  photo: null,
  activated: true,
  delete_at: null,
  default_source: 'card_1',
  two_factor_authentication: false,
  two_factor_authentication_confirmed: false,
  country_id: null,
  users_billing_address: null,
  subscription_id: null,
  role: 'USER',
  has_password: true,
};
const deleteAt = '2026-12-24T00:00:00.000Z';

describe('§4 user-change reactions', () => {
  it.each([
    ['logged out', user, null, 'loggedOut'],
    ['default source changed', user, { ...user, default_source: 'card_2' }, 'defaultSourceChanged'],
    ['reactivated', { ...user, delete_at: deleteAt }, user, 'reactivated'],
    ['deactivated', user, { ...user, delete_at: deleteAt }, 'deactivated'],
    ['became verified', { ...user, activated: false }, user, 'verified'],
    ['became unverified', user, { ...user, activated: false }, 'unverified'],
    ['nothing that matters', user, { ...user, name: 'Anne' }, null],
    ['signed in (no previous user)', null, user, null],
    ['another user', user, { ...user, id: 2, delete_at: deleteAt }, null],
  ] as const)('%s', (_title, previous, next, expected) => {
    expect(userChange(previous, next)).toBe(expected);
  });

  it('first match wins: a source change beats a reactivation in the same update', () => {
    const previous = { ...user, delete_at: deleteAt, activated: false };
    const next = { ...user, default_source: 'card_9' };
    expect(userChange(previous, next)).toBe('defaultSourceChanged');
  });

  it('decides by the first of the §4 conditions that holds, whatever else changed', () => {
    const arbitraryUser = fc.record({
      default_source: fc.constantFrom('card_1', 'card_2', null),
      delete_at: fc.constantFrom(null, deleteAt),
      activated: fc.boolean(),
    });
    fc.assert(
      fc.property(arbitraryUser, arbitraryUser, (a, b) => {
        const previous = { ...user, ...a };
        const next = { ...user, ...b };
        const order: [string, boolean][] = [
          ['defaultSourceChanged', a.default_source !== b.default_source],
          ['reactivated', Boolean(a.delete_at) && !b.delete_at],
          ['deactivated', !a.delete_at && Boolean(b.delete_at)],
          ['verified', !a.activated && b.activated],
          ['unverified', a.activated && !b.activated],
        ];
        const first = order.find(([, holds]) => holds)?.[0] ?? null;
        expect(userChange(previous, next)).toBe(first);
      }),
    );
  });

  it('lets an unverified user open verification, and the thank-you page with a subscription', () => {
    expect(unverifiedAccessPages(false)).toEqual(['email.verify']);
    expect(unverifiedAccessPages(true)).toEqual(['email.verify', 'order-received.thanks']);
  });
});
