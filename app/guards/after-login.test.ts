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

  // Browsers read `\` as `/` and drop tabs and newlines, so each of these leaves the site.
  const offSite = [
    '/\\evil.example',
    '/\\evil.example/fr/dashboard',
    '/\\/evil.example',
    '\\\\evil.example',
    '/fr/dashboard\\..\\..\\x',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '/\u0000/evil.example',
    '/\u007f/evil.example',
    '/\u0085/evil.example',
    '//evil.example',
    '///evil.example',
    'https://evil.example/fr/dashboard',
    `${ORIGIN}.evil.example/fr/dashboard`,
    `${ORIGIN}@evil.example/fr/dashboard`,
    'javascript:alert(1)',
    'data:text/html,hi',
  ];

  it.each(offSite)('never follows path %j off the site', (path) => {
    expect(go(`continue=x&${new URLSearchParams({ path })}`)).toEqual({
      kind: 'path',
      to: '/fr/dashboard',
    });
  });

  it.each(offSite)('never follows redirect_url %j off the site', (target) => {
    expect(go(new URLSearchParams({ redirect_url: target }).toString())).toEqual({
      kind: 'path',
      to: '/fr/dashboard',
    });
  });

  it('follows a same-origin path as the browser resolves it', () => {
    expect(go('continue=x&path=/fr/billing/../account/security')).toEqual({
      kind: 'path',
      to: '/fr/account/security',
    });
    expect(
      go(`continue=x&${new URLSearchParams({ path: '/fr/account/security?tab=2#codes' })}`),
    ).toEqual({
      kind: 'path',
      to: '/fr/account/security?tab=2#codes',
    });
  });

  it.each([
    ['USER', '/fr/dashboard'],
    ['ADMIN', '/fr/admin/dashboard'],
    ['AUTHOR', '/fr/admin/dashboard'],
  ] as const)('sends %s without a target to %s', (role, to) => {
    expect(go('', role)).toEqual({ kind: 'path', to });
  });
});
