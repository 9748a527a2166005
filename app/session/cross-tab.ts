import { EXTENSION_LOGOUT_MESSAGE, SESSION_CHANNEL } from '#shared/session-signals.ts';

type Signal = { type: 'logout' };

let channel: BroadcastChannel | null | undefined;

function sessionChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel =
      typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);
  }
  return channel;
}

/** Tells this browser's other tabs that the user signed out here (§4). */
export function announceLogout(): void {
  sessionChannel()?.postMessage({ type: 'logout' } satisfies Signal);
}

/**
 * Calls `onLogout` when another tab signs out (`fromExtension` false) or the browser
 * extension asks the page to (`fromExtension` true). Returns the unsubscribe.
 */
export function onLogoutElsewhere(onLogout: (fromExtension: boolean) => void): () => void {
  const tabs = sessionChannel();
  const onTab = (event: MessageEvent<Signal>) => {
    if (event.data?.type === 'logout') onLogout(false);
  };
  const onWindow = (event: MessageEvent) => {
    // Only this page's own window carries the extension's message (a content script posts
    // into it); frames and other origins cannot sign the user out.
    if (event.source !== window || event.origin !== window.location.origin) return;
    const data = event.data as Partial<typeof EXTENSION_LOGOUT_MESSAGE> | null;
    if (
      data?.source === EXTENSION_LOGOUT_MESSAGE.source &&
      data.type === EXTENSION_LOGOUT_MESSAGE.type
    ) {
      onLogout(true);
    }
  };
  tabs?.addEventListener('message', onTab);
  window.addEventListener('message', onWindow);
  return () => {
    tabs?.removeEventListener('message', onTab);
    window.removeEventListener('message', onWindow);
  };
}
