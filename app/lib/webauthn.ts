// The browser's side of passkeys (WebAuthn) through @simplewebauthn/browser, fetched when a
// page first needs it (about 4 KB gzip): the sign-in and security screens name it, the public
// home never does.

export type WebAuthnBrowser = typeof import('@simplewebauthn/browser');

let loading: Promise<WebAuthnBrowser> | undefined;

export function loadWebAuthn(): Promise<WebAuthnBrowser> {
  loading ??= import('@simplewebauthn/browser');
  return loading;
}

/**
 * WebAuthn exists here. Browsers expose it only in a secure context (https, or localhost),
 * and old ones not at all: then no passkey control is shown.
 */
export function webAuthnAvailable(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/**
 * The person closed the browser's prompt, it timed out, or another ceremony replaced it
 * (the library aborts a pending one when a new one starts): nothing to report as an error.
 */
export function ceremonyCancelled(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED';
}

/** The message key for a ceremony the browser or the authenticator refused. */
export function ceremonyErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'passkeys.errors.already_added';
  if (ceremonyCancelled(error)) return 'passkeys.errors.cancelled';
  return 'passkeys.errors.browser';
}
