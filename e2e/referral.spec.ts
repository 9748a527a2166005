import { expect, test } from '@playwright/test';
import {
  DEMO,
  JOURNEY_PASSWORD,
  registerVerifiedUser,
  signIn,
  uniqueEmail,
} from './support/auth.ts';
import { fillCard, TEST_CARDS } from './support/billing.ts';

// §1 referral program: customer A shares the link of the refer-a-friend page, customer B
// opens it, signs up on the way to paying, joins (the §8 toast) and pays; both earn bonus
// days on B's first payment, which A's open page and dashboard show.

test('a friend opens the referral link, signs up, joins, pays, and the referrer sees the reward', async ({
  page,
  browser,
  request,
}) => {
  const referrer = await registerVerifiedUser(request, 'referrer');
  await signIn(page, referrer.email, referrer.password);
  await page.getByRole('link', { name: 'Refer a friend' }).first().click();
  await expect(page).toHaveURL('/en/refer-friend');
  await expect(page.getByRole('heading', { level: 1, name: 'Refer a friend' })).toBeVisible();
  const rewards = page.getByRole('region', { name: 'Your rewards' });
  await expect(rewards.getByTestId('referral-count')).toHaveText('0 friends');
  const link = await page.getByTestId('referral-link').inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/en\/r\/[A-Za-z0-9]{16}$/);

  // The friend, in a browser of their own, follows the link to the order page.
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(link);
  await expect(friend).toHaveURL(/\/en\/order-v2/);
  await friend.getByRole('radio', { name: /^(Most popular )?1 month/ }).check();
  await friend.getByTestId('pay').click();
  await expect(friend).toHaveURL(/\/en\/signup/);
  await friend.getByLabel('E-mail address').fill(uniqueEmail('friend'));
  await friend.getByLabel('Password', { exact: true }).fill(JOURNEY_PASSWORD);
  await friend.getByLabel('Confirm password').fill(JOURNEY_PASSWORD);
  await friend.getByRole('button', { name: 'Create account' }).click();
  await expect(friend.getByText('Success referral join')).toBeVisible();
  await expect(friend).toHaveURL(/order-v2/);

  // Joined, not yet rewarded: the days come with the first payment.
  await expect(rewards.getByTestId('referral-count')).toHaveText('1 friend');
  await expect(rewards.getByTestId('referral-bonus-days')).toHaveText('0 days');

  await fillCard(friend, TEST_CARDS.visa);
  await friend.getByRole('button', { name: /^Pay / }).click();
  await expect(friend.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();

  // No reload: the referral event brings the bonus days to the referrer's open page.
  await expect(rewards.getByTestId('referral-bonus-days')).toHaveText('30 days', {
    timeout: 20_000,
  });
  await expect(rewards.getByTestId('referral-count')).toHaveText('1 friend');

  await page.goto('/en/dashboard');
  const card = page.getByRole('region', { name: 'Refer a friend' });
  await expect(card.getByTestId('dashboard-referrals')).toHaveText('1 referral');
  await expect(card.getByTestId('dashboard-bonus-days')).toHaveText('30 bonus days');
  await expect(card.getByTestId('dashboard-referral-link')).toHaveValue(link);
  await friendContext.close();
});

test("opening one's own link while signed in is refused in words", async ({ page, request }) => {
  const customer = await registerVerifiedUser(request, 'self-referral');
  await signIn(page, customer.email, customer.password);
  await page.goto('/en/refer-friend');
  const link = await page.getByTestId('referral-link').inputValue();
  await page.goto(link);
  await expect(page.getByText('You cannot join through your own referral link.')).toBeVisible();
  await expect(page).toHaveURL(/order-v2/);
});

test("the demo customer's refer-a-friend page has figures to show", async ({ page }) => {
  await signIn(page, DEMO.customer.email, DEMO.customer.password);
  await page.goto('/en/refer-friend');
  const rewards = page.getByRole('region', { name: 'Your rewards' });
  await expect(rewards.getByTestId('referral-count')).toHaveText('3 friends');
  await expect(rewards.getByTestId('referral-bonus-days')).toHaveText(/^[1-9]\d* days?$/);
  await expect(page.getByTestId('referral-link')).toHaveValue(/\/en\/r\/[A-Za-z0-9]{16}$/);
});
