import type { App } from '../http/types.ts';
import type { ApiCall } from './api-client.ts';
import type { TestOpenIdProvider } from './test-openid-provider.ts';

export const OAUTH_BASE = '/api/public/v1/oauth-client';
const STATE_COOKIE = 'oauth-state';

/**
 * The whole popup trip with Google as the browser makes it: our authorize endpoint, the
 * provider's login as `sub`, our callback, then what the opener posts to auth/token. Answers
 * auth/token's answer (the one-time token, or the refusal).
 */
export async function exchangeAtToken(
  app: App,
  call: ApiCall,
  provider: TestOpenIdProvider,
  sub: string,
) {
  const start = await app.inject({ method: 'GET', url: `${OAUTH_BASE}/authorize/google` });
  if (start.statusCode !== 302) {
    throw new Error(`authorize answered ${start.statusCode}: ${start.body}`);
  }
  const stateCookie = start.cookies.find((cookie) => cookie.name === STATE_COOKIE)?.value ?? '';
  const cookie = `${STATE_COOKIE}=${stateCookie}`;
  const back = await provider.signIn(String(start.headers.location), sub);
  const callback = await app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { cookie },
  });
  const page = new URL(String(callback.headers.location), 'http://app.invalid');
  return call('POST', `${OAUTH_BASE}/auth/token`, {
    cookie,
    body: {
      code: page.searchParams.get('code'),
      state: page.searchParams.get('state'),
      provider_id: 'google',
      response_type: 'code',
    },
  });
}

/** The whole social sign-in: the popup trip, then auth/login with the one-time token. */
export async function socialSignIn(
  app: App,
  call: ApiCall,
  provider: TestOpenIdProvider,
  sub: string,
) {
  const token = await exchangeAtToken(app, call, provider, sub);
  if (token.status !== 200) {
    throw new Error(`auth/token answered ${token.status}: ${JSON.stringify(token.body)}`);
  }
  return call('POST', `${OAUTH_BASE}/auth/login`, { body: { token: token.body.token } });
}
