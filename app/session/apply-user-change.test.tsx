import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testUser } from '../test/render-app.tsx';
import { applyUserChange, type UserChangeEffects } from './apply-user-change.ts';
import { getSession, resetSession, updateSession } from './session-store.ts';

function effects(overrides: Partial<UserChangeEffects> = {}) {
  return {
    goTo: vi.fn(),
    fetchUser: vi.fn(async () => testUser()),
    clearLocal: vi.fn(),
    reloadSubscription: vi.fn(async () => undefined),
    ...overrides,
  } satisfies UserChangeEffects;
}

beforeEach(() => {
  resetSession();
  updateSession({ logoutOverlay: false });
});

describe('applying §4 user-change reactions', () => {
  it('logs out: clears local state, goes to sign in, hides the overlay after 1 s', async () => {
    vi.useFakeTimers();
    updateSession({ user: testUser() });
    const run = effects();
    expect(await applyUserChange(null, run)).toBe('loggedOut');
    expect(run.clearLocal).toHaveBeenCalledOnce();
    expect(run.goTo).toHaveBeenCalledWith('signin');
    expect(getSession().logoutOverlay).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(getSession().logoutOverlay).toBe(false);
    vi.useRealTimers();
  });

  it('deactivated: only the reactivate-account page stays open, and it goes there', async () => {
    updateSession({ user: testUser() });
    const run = effects();
    await applyUserChange(testUser({ delete_at: '2026-12-24T00:00:00Z' }), run);
    expect(getSession().accessPages).toEqual(['reactivate-account']);
    expect(run.goTo).toHaveBeenCalledWith('reactivate-account');
  });

  it('reactivated: re-checks auth, reloads the subscription, goes to the dashboard', async () => {
    updateSession({ user: testUser({ delete_at: '2026-12-24T00:00:00Z' }) });
    const run = effects();
    await applyUserChange(testUser(), run);
    expect(run.fetchUser).toHaveBeenCalledOnce();
    expect(run.reloadSubscription).toHaveBeenCalledOnce();
    expect(run.goTo).toHaveBeenCalledWith('dashboard');
    expect(getSession().accessPages).toEqual([]);
  });

  it('became verified as staff: lands on the admin dashboard', async () => {
    updateSession({ user: testUser({ role: 'ADMIN', activated: false }) });
    const run = effects({ fetchUser: vi.fn(async () => testUser({ role: 'ADMIN' })) });
    await applyUserChange(testUser({ role: 'ADMIN' }), run);
    expect(run.goTo).toHaveBeenCalledWith('admin.dashboard');
  });

  it('became unverified: verification (and thanks with a subscription) become reachable', async () => {
    updateSession({
      user: testUser(),
      subscription: {
        current: { status: 'active', service_id: 1, onetime: false },
        lastInvoiceFinalizing: false,
      },
    });
    await applyUserChange(testUser({ activated: false }), effects());
    expect(getSession().accessPages).toEqual(['email.verify', 'order-received.thanks']);
    expect(getSession().user?.activated).toBe(false);
  });

  it('anything else just merges the new user', async () => {
    updateSession({ user: testUser() });
    const run = effects();
    expect(await applyUserChange(testUser({ name: 'Anne' }), run)).toBeNull();
    expect(getSession().user?.name).toBe('Anne');
    expect(run.goTo).not.toHaveBeenCalled();
  });
});
