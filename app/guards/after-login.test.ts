import { describe, expect, it } from 'vitest';
import { afterLogin } from './after-login.ts';

const ORIGIN = 'https://vpn.example.com';
const go = (query: string, role: 'USER' | 'ADMIN' | 'AUTHOR' = 'USER') =>
  afterLogin(new URLSearchParams(query), role, 'fr', ORIGIN);

// §2 After login: redirect_url, else continue + path, else the dashboard for the role.
describe('after login', () => {
  it('follows redirect_url as a full URL on this site', () => {
    expect(go(`redirect_url=${encodeURIComponent(`${ORIGIN}/fr/billing/invoices?x=1`)}`)).toEqual({
      kind: 'url',
      href: `${ORIGIN}/fr/billing/invoices?x=1`,
    });
    expect(go('redirect_url=/fr/account/security')).toEqual({
      kind: 'url',
      href: `${ORIGIN}/fr/account/security`,
    });
  });

  it('never follows redirect_url to another origin (open redirect)', () => {
    for (const target of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)']) {
      expect(go(`redirect_url=${encodeURIComponent(target)}`)).toEqual({
        kind: 'path',
        to: '/fr/dashboard',
      });
    }
  });

  it('follows continue and path, keeping the rest of the original query', () => {
    expect(go('continue=account.security&path=/fr/account/security&tab=2')).toEqual({
      kind: 'path',
      to: '/fr/account/security?tab=2',
    });
  });

  it('ignores a path that is not one of our routes, or leaves the site', () => {
    expect(go('continue=x&path=/fr/no/such/screen')).toEqual({ kind: 'path', to: '/fr/dashboard' });
    expect(go('continue=x&path=//evil.example/fr/dashboard')).toEqual({
      kind: 'path',
      to: '/fr/dashboard',
    });
    expect(go('path=/fr/account/security')).toEqual({ kind: 'path', to: '/fr/dashboard' });
  });

  it.each([
    ['USER', '/fr/dashboard'],
    ['ADMIN', '/fr/admin/dashboard'],
    ['AUTHOR', '/fr/admin/dashboard'],
  ] as const)('sends %s without a target to %s', (role, to) => {
    expect(go('', role)).toEqual({ kind: 'path', to });
  });
});
