import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignInResponse } from '#shared/contracts/auth.ts';
import { passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { failureMessage, isApiError } from '../../api/api-error.ts';
import { call } from '../../api/client.ts';
import {
  ceremonyCancelled,
  ceremonyErrorMessage,
  loadWebAuthn,
  webAuthnAvailable,
} from '../../lib/webauthn.ts';
import { Button } from '../../ui/button.tsx';

/**
 * The server keeps a sign-in challenge five minutes; the autofill's is renewed a little
 * before, so a passkey picked from it after a long pause still finds its challenge.
 */
export const AUTOFILL_RENEW_MS = 4.5 * 60_000;

const verify = (credential: AuthenticationResponseJSON) =>
  call(passkeyEndpoints.signIn, {
    body: {
      credential: {
        ...credential,
        clientExtensionResults: { ...credential.clientExtensionResults },
      },
    },
  });

export interface PasskeySignIn {
  /** WebAuthn exists in this browser: the e-mail field offers passkeys, the button shows. */
  supported: boolean;
  busy: boolean;
  /** "Sign in with a passkey": the browser's own passkey prompt. */
  start: () => Promise<void>;
}

/**
 * Signing in with a passkey, two ways: the browser's autofill on the e-mail field (WebAuthn
 * conditional mediation: the passkeys of this site are offered beside saved addresses, and
 * nothing shows until one is picked), and the button, which opens the browser's passkey
 * prompt at once. Either ends as the password sign-in does (`onOutcome`); a refusal is shown
 * with `onError`, a prompt the person closed is not.
 */
export function usePasskeySignIn(
  onOutcome: (outcome: SignInResponse) => Promise<void>,
  onError: (message: string | undefined) => void,
): PasskeySignIn {
  const [supported] = useState(webAuthnAvailable);
  const [busy, setBusy] = useState(false);
  // Each new round starts the autofill again (after the button's prompt ended without a
  // sign-in: starting it aborted the autofill's pending request).
  const [round, setRound] = useState(0);
  const handlers = useRef({ onOutcome, onError });
  useEffect(() => {
    handlers.current = { onOutcome, onError };
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: each round starts the autofill anew
  useEffect(() => {
    if (!supported) return;
    let active = true;
    let renew: ReturnType<typeof setTimeout> | undefined;
    const autofill = async () => {
      const webauthn = await loadWebAuthn();
      if (!active || !(await webauthn.browserSupportsWebAuthnAutofill())) return;
      while (active) {
        const { options } = await call(passkeyEndpoints.signInOptions);
        if (!active) return;
        let renewed = false;
        renew = setTimeout(() => {
          renewed = true;
          webauthn.WebAuthnAbortService.cancelCeremony();
        }, AUTOFILL_RENEW_MS);
        let credential: AuthenticationResponseJSON;
        try {
          credential = await webauthn.startAuthentication({
            optionsJSON: options,
            useBrowserAutofill: true,
          });
        } catch {
          // Renewed: ask again. Otherwise the button took over, the page is leaving, or this
          // browser cannot use passkeys here: the autofill stays quiet.
          if (renewed && active) continue;
          return;
        } finally {
          clearTimeout(renew);
        }
        if (!active) return;
        try {
          handlers.current.onError(undefined);
          await handlers.current.onOutcome(await verify(credential));
          return;
        } catch (error) {
          handlers.current.onError(failureMessage(error));
        }
      }
    };
    // Without the options (offline, a server without passkeys) the form works as before.
    autofill().catch(() => undefined);
    return () => {
      active = false;
      clearTimeout(renew);
    };
  }, [supported, round]);

  // Leaving the page ends a pending autofill request.
  useEffect(
    () => () => {
      void loadWebAuthn().then((webauthn) => webauthn.WebAuthnAbortService.cancelCeremony());
    },
    [],
  );

  const start = async () => {
    onError(undefined);
    setBusy(true);
    let signedIn = false;
    try {
      const webauthn = await loadWebAuthn();
      const { options } = await call(passkeyEndpoints.signInOptions);
      let credential: AuthenticationResponseJSON;
      try {
        credential = await webauthn.startAuthentication({ optionsJSON: options });
      } catch (error) {
        if (!ceremonyCancelled(error)) onError(ceremonyErrorMessage(error));
        return;
      }
      await onOutcome(await verify(credential));
      signedIn = true;
    } catch (error) {
      onError(isApiError(error) ? error.messageKey : failureMessage(error));
    } finally {
      setBusy(false);
      if (!signedIn) setRound((value) => value + 1);
    }
  };

  return { supported, busy, start };
}

/** The button of usePasskeySignIn; nothing where the browser has no WebAuthn. */
export function PasskeySignInButton({ passkey }: { passkey: PasskeySignIn }) {
  const { t } = useTranslation();
  if (!passkey.supported) return null;
  return (
    <Button
      variant="secondary"
      loading={passkey.busy}
      onClick={() => void passkey.start()}
      data-testid="passkey-sign-in"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        className="size-4"
      >
        <circle cx="8" cy="15" r="4" />
        <path d="m10.8 12.2 8.7-8.7M17 6l2.5 2.5M14.5 8.5 17 11" />
      </svg>
      {t('passkeys.sign_in.button')}
    </Button>
  );
}
