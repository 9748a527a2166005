import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { registerVerifiedUser, signIn } from './support/auth.ts';
import { type CaughtMail, mailTo } from './support/mail.ts';

const READY_SUBJECT = 'Your Shieldline VPN data is ready to download';

// Issue 25: a customer asks for their data on the account page, a job builds it, the mail
// catcher receives the link, and the link downloads the ZIP once.
test('ask for a copy of your data, get the link by mail, download it once', async ({
  page,
  request,
}) => {
  const { email, password } = await registerVerifiedUser(request, 'export');
  await signIn(page, email, password);
  await page.goto('/en/account/profile');

  const panel = page.getByRole('region', { name: 'Your data' });
  await expect(panel).toContainText('invoices with their PDFs');
  await panel.getByRole('button', { name: 'Request my data' }).click();
  const state = panel.getByTestId('data-export-state');
  // Built in the background; the panel follows it without a reload.
  await expect(state).toContainText('we e-mailed you a link', { timeout: 20_000 });
  await expect(panel.getByRole('button', { name: 'Request my data' })).toHaveCount(0);
  await panel.screenshot({ path: test.info().outputPath('data-export-ready.png') });

  let mail: CaughtMail | undefined;
  await expect
    .poll(async () => {
      mail = (await mailTo(request, email)).find((message) => message.subject === READY_SUBJECT);
      return mail !== undefined;
    })
    .toBe(true);
  const link = mail?.links[0] ?? '';
  expect(link).toContain('/en/account/data-export?challenge=');

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Download your data' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download ZIP file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('shieldline-data.zip');
  await expect(page.getByText('Your download has started.')).toBeVisible();

  const files = unzipSync(new Uint8Array(await readFile(await download.path())));
  const profile = JSON.parse(Buffer.from(files['profile.json'] ?? []).toString('utf8'));
  expect(profile.account.email).toBe(email);
  const audit = JSON.parse(Buffer.from(files['audit-log.json'] ?? []).toString('utf8'));
  expect(audit.entries.map((entry: { action: string }) => entry.action)).toContain(
    'account.data_export_requested',
  );

  // The link works once.
  await page.goto(link);
  await page.getByRole('button', { name: 'Download ZIP file' }).click();
  await expect(page.getByRole('alert')).toContainText('This link has already been used.');
  await page.getByRole('link', { name: 'Back to your account' }).click();
  await expect(page.getByTestId('data-export-state')).toContainText(
    'You downloaded your last copy',
  );
  await expect(page.getByTestId('data-export-state')).toContainText('new copy after');
});
