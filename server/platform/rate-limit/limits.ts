/** How many hits one key may make in one fixed window. */
export interface LimitPreset {
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Brute-force limits for the identity endpoints, spread into a rule with its name and key:
 * `{ name: 'sign-in-ip', key: request.ip, ...CREDENTIAL_LIMITS.signInPerIp }`.
 *
 * Following the OWASP Authentication and Credential Stuffing cheat sheets, each endpoint is
 * limited per account (slows guessing one password from many hosts) and per client address
 * (slows one host spraying many accounts). Windows are short, so a throttle never becomes a
 * lasting lock-out that an attacker could impose on a victim, and a successful sign-in clears
 * the counter it was counted on. The per-account sign-in counter is shared only by browsers
 * that have not signed in to the account before: one that has shows its device cookie and
 * counts on its own (OWASP's device cookies, identity/device-cookie.ts). Per-IP limits stay loose enough for an office or a mobile carrier
 * behind one NAT address; with argon2id and our password rules, ~480 guesses a day against one
 * account is far below what an online attack needs (NIST SP 800-63B allows up to 100
 * consecutive failures before a harder lock).
 */
export const CREDENTIAL_LIMITS = {
  signInPerIp: { limit: 30, windowMs: 15 * MINUTE },
  signInPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  // A browser that signed in to the account before (its device cookie) has a counter of its
  // own instead: a stranger's failures above cannot lock it out, and its own lock it alone.
  signInPerDevice: { limit: 5, windowMs: 15 * MINUTE },
  // Re-entering the password for a sensitive action (signed in already): failures only.
  passwordCheckPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  // Wrong two-factor codes, per account, at sign-in and when confirming the setup.
  twoFactorPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  // A passkey sign-in's challenge: every sign-in page opened asks for one (the browser's
  // autofill), and each is a stored row, so looser than sign-in yet bounded per address.
  passkeyOptionsPerIp: { limit: 120, windowMs: 15 * MINUTE },
  // Sign-up creates a user and sends a mail: a person makes one, a bot makes thousands.
  signUpPerIp: { limit: 10, windowMs: HOUR },
  // Per address being registered: once it has an account every try answers "taken", so
  // this bounds probing one address from many hosts, and racing sign-ups for it.
  signUpPerAddress: { limit: 5, windowMs: HOUR },
  // Each accepted request sends a mail: the per-account limit keeps a victim's inbox from
  // being flooded, the per-IP one keeps us off spam lists.
  forgotPerIp: { limit: 10, windowMs: HOUR },
  forgotPerAccount: { limit: 3, windowMs: HOUR },
  // Link tokens are 256-bit random and single use, so these guard the mailer (resend) and
  // the database more than the tokens themselves. Every link submission (reset, verification,
  // password set, e-mail change) spends one per-IP counter, `verify-ip`. A reset submission
  // has no per-account limit on purpose: it would only let a stranger who sends forged links
  // naming the victim's address hold the victim's real link back, and reset is the way out of
  // the sign-in lock.
  verifyPerIp: { limit: 20, windowMs: 15 * MINUTE },
  verifyPerAccount: { limit: 5, windowMs: HOUR },
  // A new e-mail address sends a mail to it and tells whether another account has it: per
  // account against mail floods and switching back and forth, per IP against probing.
  emailChangePerAccount: { limit: 5, windowMs: HOUR },
  emailChangePerIp: { limit: 20, windowMs: HOUR },
  // Decoding a 20 MB image takes sharp a good share of a core.
  avatarPerAccount: { limit: 10, windowMs: HOUR },
  // Staff's content images decode up to 40 megapixels: a busy day's uploads, no more.
  contentMediaPerAccount: { limit: 120, windowMs: HOUR },
} as const satisfies Record<string, LimitPreset>;
