import { expect, test } from '@playwright/test';
import { DEMO, registerVerifiedUser, signIn } from './support/auth.ts';
import { payFor, TEST_CARDS } from './support/billing.ts';

// §2 /dashboard, where every customer lands: the empty state that leads a new customer to
// order, the plan and own-plan access once paid, and a change made in another page shown
// live; the demo customer's dashboard with every card filled.

test('a new customer lands on the dashboard, orders from it, and sees a cancel made elsewhere live', async ({
  page,
  context,
  request,
}) => {
  const account = await registerVerifiedUser(request, 'dashboard');
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/en\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  const subscription = page.getByRole('region', { name: 'Subscription' });
  const access = page.getByRole('region', { name: 'VPN access' });
  await expect(subscription.getByText('You have no plan yet')).toBeVisible();
  await expect(access.getByText('No VPN access')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Signed-in devices' }).getByText('1 device'),
  ).toBeVisible();

  await subscription.getByRole('link', { name: 'Choose a plan' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your plan' })).toBeVisible();
  await payFor(page, /^1 month/, TEST_CARDS.visa);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();

  await page.goto('/en/dashboard');
  await expect(subscription.getByTestId('dashboard-plan')).toHaveText('1 month');
  await expect(subscription.getByTestId('dashboard-plan-status')).toHaveText('Active');
  await expect(subscription.getByTestId('dashboard-plan-date')).toHaveText(/^Renews on /);
  await expect(subscription.getByRole('link', { name: 'Upgrade' })).toBeVisible();
  await expect(access.getByText('VPN access active')).toBeVisible();
  await expect(access.getByText(/^Own plan, until /)).toBeVisible();

  // The same date on the membership page, opened in a second page where the customer cancels.
  const renewal = (await subscription.getByTestId('dashboard-plan-date').textContent()) ?? '';
  const elsewhere = await context.newPage();
  await elsewhere.goto('/en/billing/membership-v2');
  await expect(elsewhere.getByText(renewal)).toBeVisible();
  await elsewhere.getByRole('button', { name: 'Cancel subscription' }).click();
  await elsewhere
    .getByRole('dialog', { name: 'Cancel your subscription?' })
    .getByRole('button', { name: 'Cancel subscription' })
    .click();
  await expect(elsewhere.getByText(/^Ends on /)).toBeVisible();

  // No reload here: the live event brings the change.
  await expect(subscription.getByTestId('dashboard-plan-date')).toHaveText(
    renewal.replace('Renews on', 'Ends on'),
  );
  await expect(access.getByText('VPN access active')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Signed-in devices' }).getByText('1 device'),
  ).toBeVisible();
});

test("the demo customer's dashboard has every card filled", async ({ page }) => {
  await signIn(page, DEMO.customer.email, DEMO.customer.password);
  await page.goto('/en/dashboard');
  const subscription = page.getByRole('region', { name: 'Subscription' });
  // Which plan depends on the order the demo seeds ran in (billing's yearly plan, or the
  // bonus days of the demo referrals): a plan, not the empty state.
  await expect(subscription.getByTestId('dashboard-plan')).not.toBeEmpty();
  await expect(subscription.getByTestId('dashboard-no-plan')).toHaveCount(0);
  await expect(subscription.getByTestId('dashboard-plan-date')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'VPN access' }).getByText('VPN access active'),
  ).toBeVisible();
  const referral = page.getByRole('region', { name: 'Refer a friend' });
  await expect(referral.getByLabel('Your referral link')).toHaveValue(/\/en\/r\/\w+/);
  await expect(referral.getByTestId('dashboard-referrals')).toHaveText(/^\d+ referrals?$/);
  await expect(referral.getByTestId('dashboard-bonus-days')).toHaveText(/^\d+ bonus days?$/);
  const family = page.getByRole('region', { name: 'Family sharing' });
  await expect(family.getByTestId('dashboard-family')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Signed-in devices' }).getByTestId('dashboard-devices'),
  ).toHaveText(/^\d+ devices?$/);
  await expect(page.getByRole('region', { name: 'Apps and help' })).toBeVisible();
  // Nothing still loading, nothing failed.
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
});
