import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignInResponse } from '#shared/contracts/auth.ts';
import type { OAuthProvider, OAuthProviderId } from '#shared/contracts/oauth.ts';
import { failureMessage, isCancelled } from '../../api/api-error.ts';
import { useAppConfig } from '../../lib/app-config-context.ts';
import { Button } from '../../ui/button.tsx';
import { authorizeHref, completeOAuth, loadProviders, signInInPopup } from './oauth-sign-in.ts';
import { useLang } from './use-lang.ts';

const LABELS: Record<OAuthProviderId, string> = {
  google: 'auth.social.google',
  apple: 'auth.social.apple',
};

export interface SocialSignInProps {
  /** The answer of the last call: the user, or code 102 for the second step. */
  onOutcome: (outcome: SignInResponse) => Promise<void> | void;
  /** An i18n key to show above the form, or undefined to clear it. */
  onError: (message: string | undefined) => void;
}

/**
 * §1/§4 Google and Apple sign-in: one button per configured provider, each opening the
 * provider in a popup. Without providers (none configured), or with the `auth` feature flag
 * off (§1: sign-up and social sign-in), nothing is shown.
 */
export function SocialSignIn(props: SocialSignInProps) {
  return useAppConfig().features.includes('auth') ? <SocialButtons {...props} /> : null;
}

function SocialButtons({ onOutcome, onError }: SocialSignInProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [providers, setProviders] = useState<OAuthProvider[]>([]);
  const [busy, setBusy] = useState<OAuthProviderId>();

  useEffect(() => {
    const abort = new AbortController();
    loadProviders(abort.signal).then(
      (answer) => setProviders(answer.items),
      // The form still works without social sign-in; nothing to tell the user.
      (error: unknown) => !isCancelled(error) && console.warn('OAuth providers unavailable', error),
    );
    return () => abort.abort();
  }, []);

  if (providers.length === 0) return null;

  const start = async (provider: OAuthProvider) => {
    onError(undefined);
    setBusy(provider.id);
    const href = authorizeHref(provider.href, lang);
    try {
      const result = await signInInPopup(href).catch((error: unknown) => {
        // A blocked popup: the same flow in this window; the callback page finishes it.
        if (error instanceof Error && error.message === 'popup blocked') {
          window.location.assign(href);
          return null;
        }
        throw error;
      });
      if (result) await onOutcome(await completeOAuth(result));
    } catch (error) {
      onError(failureMessage(error));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        {t('auth.social.or')}
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="secondary"
          loading={busy === provider.id}
          disabled={busy !== undefined && busy !== provider.id}
          data-provider={provider.id}
          onClick={() => start(provider)}
        >
          <ProviderMark id={provider.id} />
          {t(LABELS[provider.id])}
        </Button>
      ))}
    </div>
  );
}

function ProviderMark({ id }: { id: OAuthProviderId }) {
  if (id === 'apple') {
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="currentColor">
        <path d="M16.4 12.6c0-2.5 2-3.7 2.1-3.8-1.2-1.7-3-1.9-3.6-2-1.5-.2-3 .9-3.8.9-.8 0-2-.9-3.3-.8-1.7 0-3.3 1-4.1 2.5-1.8 3.1-.5 7.6 1.3 10.1.8 1.2 1.8 2.6 3.1 2.5 1.3-.1 1.7-.8 3.3-.8 1.5 0 1.9.8 3.3.8 1.4 0 2.2-1.2 3-2.5 1-1.4 1.3-2.7 1.4-2.8-.1 0-2.7-1-2.7-4.1ZM14 5.2c.7-.8 1.2-2 1-3.2-1 .1-2.2.7-2.9 1.5-.6.7-1.2 1.9-1 3 1.1.1 2.2-.5 2.9-1.3Z" />
      </svg>
    );
  }
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4">
      <path
        fill="#4285F4"
        d="M22.6 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2.1-1.9 3.3-4.8 3.3-8.1Z"
      />
      <path
        fill="#34A853"
        d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1-3.7 1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.8A11 11 0 0 0 12 23Z"
      />
      <path fill="#FBBC05" d="M5.8 14.1a6.6 6.6 0 0 1 0-4.2V7.1H2.1a11 11 0 0 0 0 9.8l3.7-2.8Z" />
      <path
        fill="#EA4335"
        d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7.1l3.7 2.8C6.7 7.3 9.1 5.4 12 5.4Z"
      />
    </svg>
  );
}
