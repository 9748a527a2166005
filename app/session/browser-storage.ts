import type { AuthUser } from '#shared/contracts/auth-user.ts';

// What survives a reload in this browser. The session itself is an httpOnly cookie the page
// cannot read; the stored user record (§3 "Session keeps a stored external user record")
// only tells the first navigation that asking the server is worth it.
const USER_KEY = 'session.user';
const RESET_KEY = 'password.reset.challenge';
const REFERRAL_KEY = 'referral-link.token';

function read(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

export function storedUser(): Pick<AuthUser, 'id' | 'role'> | null {
  const raw = read(localStorage, USER_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<AuthUser>;
    return typeof value.id === 'number' && typeof value.role === 'string'
      ? { id: value.id, role: value.role }
      : null;
  } catch {
    return null;
  }
}

export function storeUser(user: AuthUser | null): void {
  if (user) localStorage.setItem(USER_KEY, JSON.stringify({ id: user.id, role: user.role }));
  else localStorage.removeItem(USER_KEY);
}

/** §2 the password reset page opens only with this one-time value in session storage. */
export function storeResetValue(challenge: string): void {
  sessionStorage.setItem(RESET_KEY, challenge);
}

export function resetValue(): string | null {
  return read(sessionStorage, RESET_KEY);
}

export function clearResetValue(): void {
  sessionStorage.removeItem(RESET_KEY);
}

/** A referral link's token, kept until the visitor signs up or joins from their account. */
export function storeReferralToken(token: string): void {
  localStorage.setItem(REFERRAL_KEY, token);
}

export function referralToken(): string | null {
  return read(localStorage, REFERRAL_KEY);
}

/** After the join succeeded or was refused for good (app/session/referral-join.ts). */
export function clearReferralToken(): void {
  localStorage.removeItem(REFERRAL_KEY);
}
