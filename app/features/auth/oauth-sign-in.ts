import type { SignInResponse } from '#shared/contracts/auth.ts';
import {
  OAUTH_CALLBACK_PAGE,
  OAUTH_PROVIDERS,
  type OAuthProviderId,
  oauthEndpoints,
} from '#shared/contracts/oauth.ts';
import type { Lang } from '#shared/locales.ts';
import { ApiError } from '../../api/api-error.ts';
import { call } from '../../api/client.ts';

/** §9 "OAuth popup 500x600 px, polled every 500 ms". */
export const POPUP_WIDTH = 500;
export const POPUP_HEIGHT = 600;
export const POPUP_POLL_MS = 500;

export function loadProviders(signal?: AbortSignal) {
  return call(oauthEndpoints.providers, {}, { signal });
}

/** What the provider sent back, as the callback page's query carries it. */
export interface OAuthResult {
  provider: OAuthProviderId;
  code: string;
  state: string;
}

const providerFailed = () =>
  new ApiError(400, 'bad_request', { info: ['errors.oauth_provider_failed'] });

/** The callback page's query as a result, or an ApiError when the provider refused. */
export function readCallback(search: string): OAuthResult | ApiError {
  const query = new URLSearchParams(search);
  const provider = query.get('provider');
  const code = query.get('code');
  const state = query.get('state');
  if (query.get('error') || !code || !state) return providerFailed();
  if (!OAUTH_PROVIDERS.includes(provider as OAuthProviderId)) return providerFailed();
  return { provider: provider as OAuthProviderId, code, state };
}

/** §7 the two calls after the provider: code → one-time token → sign-in (or code 102). */
export async function completeOAuth(result: OAuthResult): Promise<SignInResponse> {
  const { token } = await call(oauthEndpoints.token, {
    body: {
      code: result.code,
      provider_id: result.provider,
      response_type: 'code',
      state: result.state,
    },
  });
  return call(oauthEndpoints.login, { body: { token } });
}

export function authorizeHref(href: string, lang: Lang): string {
  return `${href}${href.includes('?') ? '&' : '?'}lang=${lang}`;
}

/** Is this window the app's OAuth callback page? */
export function isCallbackPath(pathname: string): boolean {
  return pathname.split('/').slice(2).join('/') === OAUTH_CALLBACK_PAGE;
}

/**
 * Opens the provider in a 500×600 popup and polls it every 500 ms until it is back on our
 * callback page (same origin, so readable) or closed. Resolves the callback's result, or
 * null when the user closed the popup. Rejects when the browser blocked the popup.
 */
export function signInInPopup(href: string): Promise<OAuthResult | null> {
  const left = Math.max(0, window.screenX + (window.outerWidth - POPUP_WIDTH) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - POPUP_HEIGHT) / 2);
  const popup = window.open(
    href,
    'oauth-sign-in',
    `popup,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`,
  );
  if (!popup) return Promise.reject(new Error('popup blocked'));
  return new Promise((resolve, reject) => {
    const timer = window.setInterval(() => {
      if (popup.closed) {
        window.clearInterval(timer);
        resolve(null);
        return;
      }
      let location: Location;
      try {
        location = popup.location;
        // Reading the path throws while the popup is on the provider's origin.
        if (!isCallbackPath(location.pathname)) return;
      } catch {
        return;
      }
      window.clearInterval(timer);
      const result = readCallback(location.search);
      popup.close();
      if (result instanceof ApiError) reject(result);
      else resolve(result);
    }, POPUP_POLL_MS);
  });
}
