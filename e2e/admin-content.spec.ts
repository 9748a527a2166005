import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './support/auth.ts';

// Issue 22 as staff use it: an author (allowed to publish by an admin) writes a post in
// English, translates it into Spanish on its own tab with its own address and schedules it,
// and the admin's list shows both languages; a published address that changes keeps
// leading there; a revision is read beside the text and restored; the demo's content is
// there to find; the editor refuses a taken address under its field.

// Whether authors may publish is one setting for the whole site: the journeys that need it on
// run in turn, and the last one switches it off again.
test.describe('authors allowed to publish', () => {
  test.describe.configure({ mode: 'serial' });

  test('an author writes a post in English, translates it into Spanish, schedules it, and an admin sees both', async ({
    browser,
  }) => {
    const stamp = Date.now().toString(36);
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signIn(admin, DEMO.admin.email, DEMO.admin.password);
    await admin.goto('/en/admin/blog/posts');
    await expect(admin).toHaveURL(/\/en\/admin\/blog\/posts\/overview$/);
    // Authors write drafts unless an admin lets them publish.
    const allow = admin.getByLabel('Authors may publish');
    // The box shows the saved setting: it changes once the server has it.
    if (!(await allow.isChecked())) await allow.click();
    await expect(allow).toBeChecked();

    const authorContext = await browser.newContext();
    const page = await authorContext.newPage();
    await signIn(page, DEMO.author.email, DEMO.author.password);
    await page.goto('/en/admin/blog/posts/overview');
    await page.getByRole('link', { name: 'New post' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New blog post' })).toBeVisible();

    await page.getByLabel('Title', { exact: true }).fill(`Travel safely ${stamp}`);
    // The address follows the title until it is typed.
    await expect(page.getByLabel('Address (slug)')).toHaveValue(`travel-safely-${stamp}`);
    await page
      .getByLabel('Text (Markdown)', { exact: true })
      .fill('## Before you go\n\nPack a **VPN**.');
    // On a wide screen the preview stands beside the text and follows the typing.
    await expect(page.getByRole('region', { name: 'Preview' }).locator('h2')).toHaveText(
      'Before you go',
    );
    await page.getByLabel('Focus keyphrase').fill('travel safely');
    await expect(page.getByTestId('seo-score')).toContainText('of 100');
    await expect(page.getByText('The title contains the keyphrase.')).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/en\/admin\/blog\/posts\/edit\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Edit blog post' })).toBeVisible();

    // Spanish: a tab of its own, started from the English text.
    await page.getByRole('tab', { name: /^Spanish/ }).click();
    await page.getByRole('button', { name: 'Copy from English' }).click();
    await page.getByLabel('Title', { exact: true }).fill(`Viajar seguro ${stamp}`);
    await page.getByLabel('Address (slug)').fill(`viajar-seguro-${stamp}`);
    await page.getByLabel('State').selectOption('scheduled');
    const tomorrow = new Date(Date.now() + 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page
      .getByLabel('Publish at', { exact: true })
      .fill(
        `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T09:00`,
      );
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: /^Spanish/ })).toContainText('Spanish: Scheduled');
    await authorContext.close();

    await admin.reload();
    const row = admin.getByRole('row', { name: new RegExp(`Travel safely ${stamp}`) });
    await expect(row).toContainText('English: Draft');
    await expect(row).toContainText('Spanish: Scheduled');
    await adminContext.close();
  });

  // Issue 23: what an author publishes is public at once, without a restart.
  test('a post an author publishes is on the blog, in the sitemap and in the feed at once', async ({
    browser,
    request,
  }) => {
    const stamp = Date.now().toString(36);
    const title = `Travel light ${stamp}`;
    const path = `/en/blog/travel-light-${stamp}`;
    // The blog as a visitor saw it a moment ago (and the server keeps it rendered).
    expect(await (await request.get('/en/blog')).text()).not.toContain(title);

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signIn(admin, DEMO.admin.email, DEMO.admin.password);
    await admin.goto('/en/admin/blog/posts/overview');
    const allow = admin.getByLabel('Authors may publish');
    if (!(await allow.isChecked())) await allow.click();
    await expect(allow).toBeChecked();

    const authorContext = await browser.newContext();
    const page = await authorContext.newPage();
    await signIn(page, DEMO.author.email, DEMO.author.password);
    await page.goto('/en/admin/blog/posts/create');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Text (Markdown)', { exact: true }).fill('## Pack less\n\nTake a VPN.');
    await page.getByLabel('State').selectOption('published');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/en\/admin\/blog\/posts\/edit\/\d+$/);
    await authorContext.close();

    expect(await (await request.get('/en/blog')).text()).toContain(title);
    const post = await request.get(path);
    expect(post.status()).toBe(200);
    const html = await post.text();
    expect(html).toContain('Pack less');
    expect(html).toContain('Arthur Author');
    const sitemap = await (await request.get('/sitemap-en.xml')).text();
    expect(sitemap).toContain(path);
    const feed = await (await request.get('/en/blog/rss.xml')).text();
    expect(feed).toContain(title);
    const atom = await (await request.get('/en/blog/atom.xml')).text();
    expect(atom).toContain(title);

    await allow.click();
    await expect(allow).not.toBeChecked();
    await adminContext.close();
  });
});

test('a published address that changes leaves a redirect, and an earlier revision is restored', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/blog/posts/create');
  await page.getByLabel('Title', { exact: true }).fill(`Kill switch ${stamp}`);
  await page.getByLabel('Text (Markdown)', { exact: true }).fill('The first text.');
  await page.getByLabel('State').selectOption('published');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/en\/admin\/blog\/posts\/edit\/\d+$/);

  await page.getByLabel('Title', { exact: true }).fill(`The kill switch ${stamp}`);
  await page.getByLabel('Address (slug)').fill(`the-kill-switch-${stamp}`);
  await page.getByLabel('Text (Markdown)', { exact: true }).fill('The second text.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Earlier addresses of this text, which now lead here:'),
  ).toBeVisible();
  await expect(page.getByText(`/en/blog/kill-switch-${stamp}`, { exact: true })).toBeVisible();
  // A visitor with the old address (a bookmark, a search result) is sent on, permanently.
  const old = await page.request.get(`/en/blog/kill-switch-${stamp}`, { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers().location).toContain(`/en/blog/the-kill-switch-${stamp}`);

  // The first revision, read beside the text as it is now, comes back as a new one.
  const revisions = page.getByRole('list', { name: 'Revisions' });
  await expect(revisions.getByRole('listitem')).toHaveCount(2);
  await revisions
    .getByRole('button', { name: /View the revision of/ })
    .last()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Revision' });
  await expect(dialog.getByText('The first text.')).toBeVisible();
  await expect(dialog.getByText('The second text.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Restore this revision' }).click();
  await page
    .getByRole('dialog', { name: 'Restore this revision?' })
    .getByRole('button', { name: 'Restore this revision' })
    .click();
  await expect(page.getByText('Revision restored.')).toBeVisible();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`Kill switch ${stamp}`);
  await expect(page.getByLabel('Text (Markdown)', { exact: true })).toHaveValue('The first text.');
  await expect(revisions.getByRole('listitem')).toHaveCount(3);
});

test('the demo content is listed, and a taken address is refused under its field', async ({
  page,
}) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/help-center/articles/published');
  await page.getByLabel('Search titles and addresses').fill('add a device');
  await expect(page.getByRole('link', { name: 'How to Add a Device' })).toBeVisible();
  await page.goto('/en/admin/static-pages/overview');
  await page.getByRole('link', { name: /terms of service/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit static page' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);

  await page.goto('/en/admin/pages/create');
  await page.getByLabel('Title', { exact: true }).fill('Sign in again');
  await page.getByLabel('Address (slug)').fill('signin');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The site already uses this address.')).toBeVisible();
  await expect(page.getByLabel('Address (slug)')).toHaveAttribute('aria-invalid', 'true');
});
