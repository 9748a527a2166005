import { expect, test } from '@playwright/test';
import { JOURNEY_PASSWORD, registerVerifiedUser, signIn, uniqueEmail } from './support/auth.ts';
import { payFor, TEST_CARDS } from './support/billing.ts';
import { linkFromMail } from './support/mail.ts';

// §4 family sharing: the owner of a family plan invites B by e-mail; B opens the mailed link,
// signs up on the way, accepts, and has family access on the dashboard; the owner removes B
// and B's open dashboard shows no access without a reload.

test('an owner invites by e-mail, the invitee signs up from the link and accepts, then is removed live', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await registerVerifiedUser(request, 'family-owner');
  await signIn(page, owner.email, owner.password);
  await page.goto('/en/order-v2');
  await payFor(page, /Family, 1 year/, TEST_CARDS.visa);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();

  await page.goto('/en/features/family-sharing');
  await expect(page.getByRole('heading', { level: 1, name: 'Family sharing' })).toBeVisible();
  await page.getByRole('button', { name: 'Start sharing' }).click();
  const family = page.getByRole('region', { name: 'Your family' });
  await expect(family.getByText('0 of 6 places taken')).toBeVisible();

  // A refused address keeps what was typed, the reason under the field.
  const invite = page.getByRole('region', { name: 'Invite someone' });
  await invite.getByLabel('E-mail address').fill(owner.email);
  await invite.getByRole('button', { name: 'Send invite' }).click();
  await expect(invite.getByText('You cannot invite yourself.')).toBeVisible();
  await expect(invite.getByLabel('E-mail address')).toHaveValue(owner.email);

  const invitee = uniqueEmail('family-member');
  await invite.getByLabel('E-mail address').fill(invitee);
  await invite.getByRole('button', { name: 'Send invite' }).click();
  const seat = family.getByTestId('family-user').filter({ hasText: invitee });
  await expect(seat).toHaveAttribute('data-state', 'invited');
  await expect(family.getByText('1 of 6 places taken')).toBeVisible();

  // B, in a browser of their own, opens the mailed link without an account.
  const link = await linkFromMail(request, invitee);
  expect(link).toContain('/en/familysharing/invite/verify?challenge=');
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await member.goto(link);
  await expect(member.getByRole('heading', { name: 'Family plan invite' })).toBeVisible();
  await expect(member.getByText(`This invite was sent to ${invitee}.`)).toBeVisible();
  await member.getByRole('link', { name: 'Create an account' }).click();
  await expect(member).toHaveURL(/\/en\/signup/);
  await member.getByLabel('E-mail address').fill(invitee);
  await member.getByLabel('Password', { exact: true }).fill(JOURNEY_PASSWORD);
  await member.getByLabel('Confirm password').fill(JOURNEY_PASSWORD);
  await member.getByRole('button', { name: 'Create account' }).click();

  // Back on the invite, signed in as the invited address.
  await expect(member).toHaveURL(/\/en\/familysharing\/invite\/verify\?/);
  await member.getByRole('button', { name: 'Accept' }).click();
  await expect(member.getByTestId('family-verify-accepted')).toContainText(
    `You now have VPN access through ${owner.email}’s family plan.`,
  );

  // The owner's open page follows without a reload.
  await expect(seat).toHaveAttribute('data-state', 'member', { timeout: 20_000 });

  // B verifies the address (the second mail) and lands on the dashboard: family access.
  await member.goto(await linkFromMail(request, invitee, 2));
  await expect(member).toHaveURL(/\/en\/dashboard/);
  const access = member.getByTestId('dashboard-access');
  await expect(access).toContainText('VPN access active');
  await expect(access).toContainText(`Family plan of ${owner.email}`);

  // The owner removes B after a confirmation; B's open dashboard loses access live.
  await seat.getByRole('button', { name: `Remove ${invitee}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this member?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(seat).toHaveCount(0);
  await expect(family.getByText('0 of 6 places taken')).toBeVisible();
  await expect(access).toContainText('No VPN access', { timeout: 20_000 });
  await memberContext.close();
});
