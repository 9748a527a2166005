// Signals that end a browser's session from outside the page (§4 "Logout in one browser
// tab, or from the browser extension, logs out the other tabs"). No zod here: the page's
// first bundle listens for them.

/**
 * What the browser extension posts to the page (`window.postMessage`) to sign the user out
 * of the site, as documented in docs/operations/realtime.md.
 */
export const EXTENSION_LOGOUT_MESSAGE = { source: 'shieldline-extension', type: 'logout' } as const;

/** The BroadcastChannel the tabs of one browser tell each other about sign-outs on. */
export const SESSION_CHANNEL = 'shieldline-session';
