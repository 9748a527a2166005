import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { DEMO, registerVerifiedUser, signIn } from './support/auth.ts';
import { type CaughtMail, mailTo } from './support/mail.ts';

// §2 account.notifications and admin.notifications.email-lists, issue 14 must-show 3 and 5:
// a customer subscribes to a list, an admin sends it a message, and the mail's RFC 8058
// one-click unsubscribe (a form POST without cookies, as a mail app sends it) or its visible
// link (a page whose button unsubscribes) ends the subscription.
// Each test sends to a list of its own: a list takes one message at a time.

/** The customer's switch of `list` on their notification settings. */
function listSwitch(page: Page, list: string) {
  return page
    .getByRole('region', { name: 'Notification settings' })
    .getByRole('switch', { name: list });
}

async function newSubscriber(page: Page, request: APIRequestContext, list: string) {
  const customer = await registerVerifiedUser(request, 'lists');
  await signIn(page, customer.email, customer.password);
  await page.goto('/en/account/notifications');
  await expect(
    page.getByRole('heading', { level: 2, name: 'Notification settings' }),
  ).toBeVisible();
  const toggle = listSwitch(page, list);
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(
    page.getByRole('status').filter({ hasText: `Subscribed to ${list}` }),
  ).toBeAttached();
  return customer;
}

/** The demo admin sends `subject` to `list` from the e-mail lists screen, after the confirm. */
async function sendFromAdmin(browser: Browser, list: string, subject: string): Promise<void> {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, DEMO.admin.email, DEMO.admin.password);
  await admin.goto('/en/admin/notifications/email-lists');
  await expect(admin.getByRole('heading', { level: 1, name: 'Email lists' })).toBeVisible();
  await admin.getByRole('button', { name: `Send a message to ${list}` }).click();
  const dialog = admin.getByRole('dialog', { name: `Message to ${list}` });
  await dialog.getByLabel('Subject').fill(subject);
  await dialog
    .getByLabel('Message')
    .fill('# What is new\n\nOur **new servers** in Lisbon are open.\n\n- faster\n- closer');
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  const confirmation = admin.getByRole('dialog', { name: 'Send this message?' });
  await expect(confirmation).toContainText(`It goes to the subscribers of ${list}.`);
  await expect(confirmation).toContainText(/Recipients: \d+\./);
  await confirmation.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog).toBeHidden();
  const send = admin.getByTestId('send').filter({ hasText: subject });
  await expect(send).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await context.close();
}

async function mailWith(
  request: APIRequestContext,
  to: string,
  subject: string,
): Promise<CaughtMail> {
  let mail: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        mail = (await mailTo(request, to)).find((each) => each.subject === subject);
        return Boolean(mail);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  if (!mail) throw new Error(`no mail "${subject}" to ${to}`);
  return mail;
}

test('a subscriber leaves a list by the one-click unsubscribe of its mail, without signing in', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const list = 'Offers and discounts';
  const customer = await newSubscriber(page, request, list);

  const subject = `Spring offers ${Date.now().toString(36)}`;
  await sendFromAdmin(browser, list, subject);

  const mail = await mailWith(request, customer.email, subject);
  expect(mail.text).toContain('Our new servers in Lisbon are open.');
  expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  const oneClick = /^<(https?:\/\/[^>]+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1];
  expect(oneClick).toMatch(/\/api\/public\/v1\/notifications\/one-click\/[0-9a-f-]{36}$/);

  // A mail app's POST: a form, no cookies, no CSRF header (Node's own fetch, not the page's).
  const answer = await fetch(oneClick as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(answer.status).toBe(200);

  await page.reload();
  await expect(listSwitch(page, list)).toHaveAttribute('aria-checked', 'false');
});

test("a subscriber leaves a list by the mail's visible link: the page changes nothing until its button", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const list = 'Service status';
  const customer = await newSubscriber(page, request, list);

  const subject = `Maintenance ${Date.now().toString(36)}`;
  await sendFromAdmin(browser, list, subject);
  const mail = await mailWith(request, customer.email, subject);
  const link = mail.links.find((each) => each.includes('/en/notifications/unsubscribe/'));
  expect(link).toBeDefined();

  // Opened in a browser without the customer's session.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(link as string);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
  await expect(visitor.getByText(`Stop receiving “${list}” e-mails?`)).toBeVisible();

  // Opening the page left the subscription alone.
  await page.reload();
  await expect(listSwitch(page, list)).toHaveAttribute('aria-checked', 'true');

  await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(visitor.getByRole('status')).toContainText(`You are unsubscribed from “${list}”.`);
  await visitorContext.close();

  await page.reload();
  await expect(listSwitch(page, list)).toHaveAttribute('aria-checked', 'false');

  // The link once used answers calmly.
  const again = await browser.newPage();
  await again.goto(link as string);
  await expect(again.getByText('This link is no longer subscribed to any list.')).toBeVisible();
  await again.close();
});
