import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingEndpoints, type SubscriptionDetail } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { type DashboardResponse, dashboardEndpoints } from '#shared/contracts/dashboard.ts';
import { familySharingEndpoints } from '#shared/contracts/family-sharing.ts';
import { referralEndpoints } from '#shared/contracts/referral.ts';
import { type DevicesResponse, vpnEndpoints } from '#shared/contracts/vpn.ts';
import type { SubscriptionValue } from '#shared/subscription/actions.ts';
import { emitLive } from '../../realtime/live-signals.ts';
import { renderApp, TEST_CONFIG, testUser } from '../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../test/stub-fetch.ts';
import { devicesAnswer, GB, vpnDevice } from '../vpn/vpn-test-data.ts';
import {
  dashboardAnswer,
  familyAnswer,
  PERIOD_END,
  referralAnswer,
  subscriptionDetail,
} from './dashboard-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(iso));

const sessionWith = (subscription: SubscriptionDetail | null) => {
  const current: SubscriptionValue | null = subscription && {
    status: subscription.status,
    service_id: subscription.service_id,
    onetime: subscription.onetime,
  };
  return { subscription: { current, lastInvoiceFinalizing: false } };
};

interface Server {
  dashboard: DashboardResponse;
  subscription: SubscriptionDetail | null;
  referral: ReturnType<typeof referralAnswer>;
  family: ReturnType<typeof familyAnswer>;
  vpn?: DevicesResponse;
  dashboardFails?: boolean;
  subscriptionFails?: boolean;
}

/** The calls the dashboard makes, answered from `server`, which a test may change. */
function serve(server: Server) {
  return stubFetch({
    [dashboardEndpoints.view.url]: () =>
      server.dashboardFails ? errorResponse(500, 'internal') : jsonResponse(200, server.dashboard),
    [billingEndpoints.subscription.url]: () =>
      server.subscription
        ? jsonResponse(200, { subscription: server.subscription })
        : errorResponse(404, 'not_found'),
    [currentSubscriptionEndpoint.url]: () =>
      server.subscriptionFails
        ? errorResponse(500, 'internal')
        : jsonResponse(200, {
            subscription: server.subscription && {
              status: server.subscription.status,
              service_id: server.subscription.service_id,
              onetime: server.subscription.onetime,
            },
            last_invoice_finalizing: false,
          }),
    [referralEndpoints.view.url]: () => jsonResponse(200, server.referral),
    [familySharingEndpoints.view.url]: () => jsonResponse(200, server.family),
    [vpnEndpoints.devices.url]: () => jsonResponse(200, server.vpn ?? devicesAnswer()),
  });
}

function newCustomer(): Server {
  return {
    dashboard: dashboardAnswer(),
    subscription: null,
    referral: referralAnswer(),
    family: familyAnswer(),
  };
}

describe('dashboard', () => {
  it('shows a new customer the empty state that leads to the order page, and no access', async () => {
    serve(newCustomer());
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(null));
    await expect
      .element(screen.getByRole('heading', { name: 'Dashboard', level: 1 }))
      .toBeVisible();
    const subscription = screen.getByRole('region', { name: 'Subscription' });
    await expect.element(subscription.getByText('You have no plan yet')).toBeVisible();
    await expect
      .element(subscription.getByRole('link', { name: 'Choose a plan' }))
      .toHaveAttribute('href', '/en/billing/order-v2');
    const access = screen.getByRole('region', { name: 'VPN access' });
    await expect.element(access.getByText('No VPN access')).toBeVisible();
    await expect
      .element(screen.getByRole('region', { name: 'Signed-in devices' }).getByText('1 device'))
      .toBeVisible();
  });

  it('shows the running plan with its renewal date, the upgrade, and own-plan access', async () => {
    const detail = subscriptionDetail();
    serve({
      ...newCustomer(),
      subscription: detail,
      dashboard: dashboardAnswer({
        access: {
          active: true,
          until: PERIOD_END,
          sources: [{ source: 'subscription', until: PERIOD_END }],
        },
        devices_count: 3,
      }),
    });
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(detail));
    const subscription = screen.getByRole('region', { name: 'Subscription' });
    await expect
      .element(subscription.getByTestId('dashboard-plan'))
      .toHaveTextContent('VPN Monthly');
    await expect
      .element(subscription.getByTestId('dashboard-plan-status'))
      .toHaveTextContent('Active');
    await expect
      .element(subscription.getByTestId('dashboard-plan-date'))
      .toHaveTextContent(`Renews on ${longDate(PERIOD_END)}`);
    await expect
      .element(subscription.getByRole('link', { name: 'Upgrade' }))
      .toHaveAttribute('href', '/en/billing/upgrade-v2');
    await expect
      .element(subscription.getByRole('link', { name: 'Manage membership' }))
      .toBeVisible();
    const access = screen.getByRole('region', { name: 'VPN access' });
    await expect.element(access.getByText('VPN access active')).toBeVisible();
    await expect.element(access.getByText(`Own plan, until ${longDate(PERIOD_END)}`)).toBeVisible();
    const devices = screen.getByRole('region', { name: 'Signed-in devices' });
    await expect.element(devices.getByText('3 devices')).toBeVisible();
    await expect
      .element(devices.getByRole('link', { name: 'See and sign out devices' }))
      .toHaveAttribute('href', '/en/account/security#account-devices');
  });

  it('offers to fix the payment method of a plan on hold, with access until the grace end', async () => {
    const detail = subscriptionDetail({ status: 'on_hold', grace_until: PERIOD_END });
    serve({ ...newCustomer(), subscription: detail });
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(detail));
    const subscription = screen.getByRole('region', { name: 'Subscription' });
    await expect
      .element(subscription.getByRole('link', { name: 'Fix payment method' }))
      .toHaveAttribute('href', '/en/billing/fix-payment-method');
    await expect
      .element(subscription.getByTestId('dashboard-plan-status'))
      .toHaveTextContent('On hold');
  });

  it('offers to reactivate an expired plan', async () => {
    const detail = subscriptionDetail({ status: 'expired', ended_at: PERIOD_END });
    serve({ ...newCustomer(), subscription: detail });
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(detail));
    const subscription = screen.getByRole('region', { name: 'Subscription' });
    await expect.element(subscription.getByRole('link', { name: 'Reactivate' })).toBeVisible();
    await expect
      .element(subscription.getByTestId('dashboard-plan-date'))
      .toHaveTextContent(`Ended on ${longDate(PERIOD_END)}`);
  });

  it('shows a family member whose plan it is, on the access and family cards', async () => {
    const owner = { id: 9, name: 'Olga Owner', email: 'olga@example.com', photo: null };
    serve({
      ...newCustomer(),
      dashboard: dashboardAnswer({
        access: {
          active: true,
          until: null,
          sources: [{ source: 'family', until: null, from: 'Olga Owner' }],
        },
      }),
      family: familyAnswer({ role: 'member', owner, group_id: 4, seats: 5, seats_used: 1 }),
    });
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(null));
    const access = screen.getByRole('region', { name: 'VPN access' });
    await expect.element(access.getByText('Family plan of Olga Owner')).toBeVisible();
    await expect.element(access.getByText('For as long as the plan you use runs')).toBeVisible();
    const family = screen.getByRole('region', { name: 'Family sharing' });
    await expect.element(family.getByText('Olga Owner shares their plan with you')).toBeVisible();
    await expect
      .element(family.getByRole('link', { name: 'Family sharing' }))
      .toHaveAttribute('href', '/en/features/family-sharing');
  });

  it('shows the referral link, referrals and bonus days, and copies the link', async () => {
    serve({
      ...newCustomer(),
      referral: referralAnswer({ referrals_count: 1, bonus_days_left: 30 }),
    });
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(null));
    const referral = screen.getByRole('region', { name: 'Refer a friend' });
    const link = `${window.location.origin}/en/r/ANN2024`;
    await expect.element(referral.getByLabelText('Your referral link')).toHaveValue(link);
    await expect.element(referral.getByText('1 referral')).toBeVisible();
    await expect.element(referral.getByText('30 bonus days')).toBeVisible();
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await referral.getByRole('button', { name: 'Copy link' }).click();
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(link));
  });

  it('hides the referral and family cards when their features are off', async () => {
    serve(newCustomer());
    const config = {
      ...TEST_CONFIG,
      features: TEST_CONFIG.features.filter((f) => f === 'billing'),
    };
    const { screen } = await renderApp('/en/dashboard', testUser(), config, sessionWith(null));
    await expect.element(screen.getByRole('region', { name: 'VPN access' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Refer a friend' }).elements()).toHaveLength(0);
    expect(screen.getByRole('region', { name: 'Family sharing' }).elements()).toHaveLength(0);
  });

  it('says when the access could not be loaded, and tries again', async () => {
    const server: Server = { ...newCustomer(), dashboardFails: true };
    serve(server);
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(null));
    const access = screen.getByRole('region', { name: 'VPN access' });
    // The query retries once before it reports the failure.
    await expect.element(access.getByRole('alert'), { timeout: 5000 }).toBeVisible();
    server.dashboardFails = false;
    await access.getByRole('button', { name: 'Try again' }).click();
    await expect.element(access.getByText('No VPN access')).toBeVisible();
  });

  it('says when the subscription could not be loaded, and tries again', async () => {
    const server: Server = { ...newCustomer(), subscriptionFails: true };
    serve(server);
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, {
      subscription: undefined,
    });
    const subscription = screen.getByRole('region', { name: 'Subscription' });
    await expect.element(subscription.getByRole('alert')).toBeVisible();
    server.subscriptionFails = false;
    await subscription.getByRole('button', { name: 'Try again' }).click();
    await expect.element(subscription.getByText('You have no plan yet')).toBeVisible();
  });

  it('shows the VPN devices against the limit, the usage bar, and the way to the download page', async () => {
    serve({
      ...newCustomer(),
      vpn: devicesAnswer({
        items: [vpnDevice(), vpnDevice({ device_id: 2, name: 'Phone' })],
        usage: { ...devicesAnswer().usage, used_bytes: 40 * GB, limit_bytes: 100 * GB },
      }),
    });
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(null));
    const vpn = screen.getByRole('region', { name: 'VPN devices' });
    await expect
      .element(vpn.getByTestId('dashboard-vpn-devices'))
      .toHaveTextContent('2 of 10 devices');
    await expect
      .element(vpn.getByRole('meter', { name: 'Traffic used this period' }))
      .toHaveAttribute('aria-valuenow', '40');
    await expect
      .element(vpn.getByText(`Resets on ${longDate('2026-12-01T00:00:00.000Z')}`))
      .toBeVisible();
    expect(vpn.getByTestId('vpn-limit-reached').elements()).toHaveLength(0);
    await expect
      .element(vpn.getByRole('link', { name: 'Add and manage devices' }))
      .toHaveAttribute('href', '/en/download');
    await expect
      .element(
        screen
          .getByRole('region', { name: 'Apps and help' })
          .getByRole('link', { name: 'Download apps' }),
      )
      .toHaveAttribute('href', '/en/download');
  });

  it('says on the VPN card when the traffic limit is reached, and when it resets', async () => {
    const server: Server = { ...newCustomer(), vpn: devicesAnswer() };
    serve(server);
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(null));
    const vpn = screen.getByRole('region', { name: 'VPN devices' });
    await expect
      .element(vpn.getByTestId('dashboard-vpn-devices'))
      .toHaveTextContent('0 of 10 devices');
    server.vpn = devicesAnswer({
      items: [vpnDevice({ enabled: false, blocked_by: 'traffic_limit' })],
      usage: {
        ...devicesAnswer().usage,
        used_bytes: 100 * GB,
        limit_bytes: 100 * GB,
        limit_reached: true,
      },
    });
    // Live: the traffic sweep's event reaches the open dashboard.
    emitLive('vpn');
    await expect
      .element(vpn.getByTestId('vpn-limit-reached'))
      .toHaveTextContent(
        `Traffic limit reached, resets on ${longDate('2026-12-01T00:00:00.000Z')}`,
      );
    await expect.element(vpn.getByRole('meter')).toHaveAttribute('aria-valuenow', '100');
  });

  it('follows live events without a reload: access, referrals and family', async () => {
    const server = newCustomer();
    serve(server);
    const { screen } = await renderApp('/en/dashboard', testUser(), undefined, sessionWith(null));
    const access = screen.getByRole('region', { name: 'VPN access' });
    await expect.element(access.getByText('No VPN access')).toBeVisible();

    server.dashboard = dashboardAnswer({
      access: {
        active: true,
        until: null,
        sources: [{ source: 'family', until: null, from: 'Olga' }],
      },
    });
    emitLive('family');
    await expect.element(access.getByText('Family plan of Olga')).toBeVisible();

    server.referral = referralAnswer({ referrals_count: 2, bonus_days_left: 60 });
    emitLive('referral');
    const referral = screen.getByRole('region', { name: 'Refer a friend' });
    await expect.element(referral.getByText('2 referrals')).toBeVisible();
    await expect.element(referral.getByText('60 bonus days')).toBeVisible();

    server.dashboard = dashboardAnswer();
    emitLive('subscription');
    await expect.element(access.getByText('No VPN access')).toBeVisible();
  });
});
