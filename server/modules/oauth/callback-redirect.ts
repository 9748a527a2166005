import { OAUTH_CALLBACK_PAGE, type OAuthProviderAnswer } from '#shared/contracts/oauth.ts';
import type { Lang } from '#shared/locales.ts';
import type { OAuthProviderSettings } from '../../platform/oauth/providers.ts';
import type { OAuthState } from '../../platform/oauth/state-cookie.ts';

/**
 * What the provider sent back to the callback, by query or form; Apple's first form post
 * adds `user`: `{"name":{"firstName","lastName"},"email"}`.
 */
export type ProviderAnswer = OAuthProviderAnswer;

/** An OAuth error code as RFC 6749 spells them; anything else is not passed on to the page. */
const ERROR_CODE = /^[\w.-]{1,64}$/;

function appleName(user: string | undefined): string | undefined {
  if (!user) return undefined;
  try {
    const { name } = JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } };
    const parts = [name?.firstName, name?.lastName].filter(
      (part): part is string => typeof part === 'string' && part.trim() !== '',
    );
    return parts.length ? parts.join(' ').trim().slice(0, 255) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the callback sends the browser: the app page, which hands code and state to its
 * opener (nothing is exchanged here), in the language the sign-in started in. Answers the
 * state to keep when Apple named the person, which it does only once.
 */
export function callbackRedirect(
  provider: OAuthProviderSettings,
  answer: ProviderAnswer,
  state: OAuthState | undefined,
  defaultLang: Lang,
): { location: string; state: OAuthState | undefined } {
  const query = new URLSearchParams({ provider: provider.id });
  // RFC 9207: an answer naming another issuer is a mix-up attack or a misconfiguration.
  const wrongIssuer = answer.iss !== undefined && answer.iss !== provider.issuer;
  if (answer.error || wrongIssuer || !answer.code) {
    const error = answer.error && ERROR_CODE.test(answer.error) ? answer.error : 'invalid_request';
    query.set('error', error);
  } else {
    query.set('code', answer.code);
  }
  if (answer.state) query.set('state', answer.state);
  const name = appleName(answer.user);
  const kept = name && state?.provider === provider.id ? { ...state, name } : undefined;
  return {
    location: `/${state?.lang ?? defaultLang}/${OAUTH_CALLBACK_PAGE}?${query}`,
    state: kept,
  };
}
