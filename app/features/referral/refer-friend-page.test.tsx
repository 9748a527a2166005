import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { type ReferralView, referralEndpoints } from '#shared/contracts/referral.ts';
import { emitLive } from '../../realtime/live-signals.ts';
import { clearReferralToken, storeReferralToken } from '../../session/browser-storage.ts';
import { renderApp, TEST_CONFIG, testUser } from '../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../test/stub-fetch.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  clearReferralToken();
});

const NO_SUBSCRIPTION = () =>
  jsonResponse(200, { subscription: null, last_invoice_finalizing: false });

function serve(view: { current: ReferralView | 'fails' }) {
  return stubFetch({
    [referralEndpoints.view.url]: () =>
      view.current === 'fails' ? errorResponse(500, 'internal') : jsonResponse(200, view.current),
    [currentSubscriptionEndpoint.url]: NO_SUBSCRIPTION,
  });
}

const fresh = (): ReferralView => ({
  code: 'ANN2024',
  referrals_count: 0,
  bonus_days_left: 0,
  bonus_days_per_friend: 14,
});

describe('refer a friend page', () => {
  it('shows the full link, copies it with an announcement, and follows live figures', async () => {
    const view = { current: fresh() as ReferralView | 'fails' };
    serve(view);
    const { screen } = await renderApp('/en/refer-friend', testUser());
    await expect
      .element(screen.getByRole('heading', { name: 'Refer a friend', level: 1 }))
      .toBeVisible();
    const link = `${window.location.origin}/en/r/ANN2024`;
    await expect.element(screen.getByLabelText('Referral link', { exact: true })).toHaveValue(link);
    const figures = screen.getByRole('region', { name: 'Your rewards' });
    await expect.element(figures.getByText('0 friends')).toBeVisible();
    // What a friend who pays earns, before anyone has.
    await expect.element(figures.getByText('For you and each friend who pays')).toBeVisible();
    await expect.element(figures.getByText('14 days')).toBeVisible();
    await expect
      .element(figures.getByText('Nobody has joined through your link yet.'))
      .toBeVisible();

    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await screen.getByRole('button', { name: 'Copy link' }).click();
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(link));
    await expect.element(screen.getByRole('status').getByText('Copied')).toBeVisible();

    // A friend joined and paid elsewhere: the live event brings the new figures.
    view.current = { ...fresh(), referrals_count: 1, bonus_days_left: 30 };
    emitLive('referral');
    await expect.element(figures.getByText('1 friend', { exact: true })).toBeVisible();
    await expect.element(figures.getByText('30 days')).toBeVisible();
  });

  it('selects the link for copying by hand where there is no clipboard', async () => {
    serve({ current: fresh() });
    const { screen } = await renderApp('/en/refer-friend', testUser());
    await expect.element(screen.getByLabelText('Referral link', { exact: true })).toBeVisible();
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined, share: undefined });
    await screen.getByRole('button', { name: 'Copy link' }).click();
    await expect.element(screen.getByText(/The link is selected/)).toBeVisible();
    await expect.element(screen.getByLabelText('Referral link', { exact: true })).toHaveFocus();
  });

  it('offers the share sheet where the browser has one', async () => {
    serve({ current: fresh() });
    const { screen } = await renderApp('/en/refer-friend', testUser());
    await expect.element(screen.getByLabelText('Referral link', { exact: true })).toBeVisible();
    const share = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, share });
    await screen.getByRole('button', { name: 'Share' }).click();
    await vi.waitFor(() =>
      expect(share).toHaveBeenCalledWith(
        expect.objectContaining({ url: `${window.location.origin}/en/r/ANN2024` }),
      ),
    );
  });

  it('says when the link could not be loaded, and tries again', async () => {
    const view = { current: 'fails' as ReferralView | 'fails' };
    serve(view);
    const { screen } = await renderApp('/en/refer-friend', testUser());
    await expect
      .element(screen.getByText('Your referral link could not be loaded.'), { timeout: 5_000 })
      .toBeVisible();
    view.current = fresh();
    await screen.getByRole('button', { name: 'Try again' }).click();
    await expect.element(screen.getByLabelText('Referral link', { exact: true })).toBeVisible();
  });

  it('is not there when the referral program is off', async () => {
    serve({ current: fresh() });
    const config = {
      ...TEST_CONFIG,
      features: TEST_CONFIG.features.filter((f) => f !== 'referral'),
    };
    const { screen } = await renderApp('/en/refer-friend', testUser(), config);
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .not.toHaveTextContent('Refer a friend');
  });
});

describe('joining through a stored referral link', () => {
  function serveJoin(answer: () => Response) {
    return stubFetch({
      [referralEndpoints.join.url]: answer,
      [referralEndpoints.view.url]: () => jsonResponse(200, fresh()),
      [currentSubscriptionEndpoint.url]: NO_SUBSCRIPTION,
    });
  }

  it('joins once a customer is signed in, says so, and forgets the token', async () => {
    storeReferralToken('FRIEND1');
    const seen = serveJoin(() => jsonResponse(200, { joined: true }));
    const { screen } = await renderApp('/en/refer-friend', testUser({ id: 101 }));
    await expect.element(screen.getByText('Success referral join')).toBeVisible();
    const joins = seen.filter((request) => request.url.endsWith(referralEndpoints.join.url));
    expect(joins).toHaveLength(1);
    expect(await joins[0]?.json()).toEqual({ token: 'FRIEND1' });
    expect(localStorage.getItem('referral-link.token')).toBeNull();
  });

  it('shows a refusal in words and forgets the token', async () => {
    storeReferralToken('OWN');
    serveJoin(() =>
      jsonResponse(409, { code: 'conflict', errors_info: ['referral.errors.own_code'] }),
    );
    const { screen } = await renderApp('/en/refer-friend', testUser({ id: 102 }));
    await expect
      .element(screen.getByText('You cannot join through your own referral link.'))
      .toBeVisible();
    expect(localStorage.getItem('referral-link.token')).toBeNull();
  });

  it('keeps the token when the server could not answer', async () => {
    storeReferralToken('LATER');
    serveJoin(() => errorResponse(503, 'unavailable'));
    await renderApp('/en/refer-friend', testUser({ id: 103 }));
    await vi.waitFor(() => expect(localStorage.getItem('referral-link.token')).toBe('LATER'));
  });

  it('does not join for staff', async () => {
    storeReferralToken('STAFF');
    const seen = serveJoin(() => jsonResponse(200, { joined: true }));
    await renderApp('/en/refer-friend', testUser({ id: 104, role: 'ADMIN' }));
    await vi.waitFor(() => expect(localStorage.getItem('referral-link.token')).toBeNull());
    expect(seen.some((request) => request.url.endsWith(referralEndpoints.join.url))).toBe(false);
  });
});
