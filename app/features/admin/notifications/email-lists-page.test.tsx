import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AdminNotificationList,
  empEndpoints,
  NOTIFICATION_MESSAGES,
  type NotificationSend,
} from '#shared/contracts/notifications.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// §2 /admin/notifications/email-lists: a list's edit in a dialog with the server's refusal
// under its field, and a message sent only after a confirm that names the recipients.

const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const NEWS: AdminNotificationList = {
  listUuid: '00000000-0000-4000-8000-000000000001',
  name: 'Product news',
  description: 'New features, about once a month.',
  visible: true,
  push: false,
  subscribers_count: 3,
  last_send: null,
  updated_at: '2026-11-20T10:00:00.000Z',
};
const page = <T,>(items: T[]) => ({
  items,
  controls: { page: 1, per_page: 100, total: items.length, last_page: 1 },
});
/** GET /emp: the page's controls and the send pace. */
const lists = (items: AdminNotificationList[]) => ({
  ...page(items),
  controls: { ...page(items).controls, send_rate_per_second: 10 },
});
const invalid = (field: string, message: string) =>
  jsonResponse(422, {
    code: 'validation_failed',
    errors_validation: { [field]: [message] },
    errors_info: [],
  });

function sendOf(subject: string): NotificationSend {
  return {
    send_id: 7,
    listUuid: NEWS.listUuid,
    list_name: NEWS.name,
    subject,
    status: 'done',
    total: 3,
    sent: 3,
    failed: 0,
    created_by: 'Ada Admin',
    created_at: '2026-11-21T10:00:00.000Z',
    started_at: '2026-11-21T10:00:01.000Z',
    finished_at: '2026-11-21T10:00:02.000Z',
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('e-mail lists', () => {
  it('edits a list in a dialog, with the server’s refusal under its field', async () => {
    let list = NEWS;
    const updates: Record<string, unknown>[] = [];
    stubFetch({
      [empEndpoints.list.url]: () => jsonResponse(200, lists([list])),
      [empEndpoints.sends.url]: () => jsonResponse(200, page([])),
      [empEndpoints.update.url]: async (request) => {
        const body = (await request.json()) as Record<string, unknown>;
        updates.push(body);
        if (body.name === 'Taken') return invalid('name', 'input_errors.field_is_invalid');
        list = { ...list, ...(body as Partial<AdminNotificationList>) };
        return jsonResponse(200, { list });
      },
    });
    const { screen } = await renderApp('/en/admin/notifications/email-lists', admin);
    await expect.element(screen.getByText('Messages go out at 10 e-mails a second.')).toBeVisible();
    await screen.getByRole('button', { name: 'Edit Product news' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Edit e-mail list' });
    await expect.element(dialog.getByLabelText('Name')).toHaveValue('Product news');

    // Checked in the browser first: nothing is sent.
    await dialog.getByLabelText('Name').fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .element(dialog.getByLabelText('Name'))
      .toHaveAccessibleDescription('This field is required.');
    expect(updates).toEqual([]);

    await dialog.getByLabelText('Name').fill('Taken');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .element(dialog.getByLabelText('Name'))
      .toHaveAccessibleDescription('This value is not valid.');
    await expect.element(dialog.getByLabelText('Name')).toHaveValue('Taken');

    await dialog.getByLabelText('Name').fill('Product updates');
    await dialog.getByLabelText('Visible to customers').click();
    await dialog.getByLabelText('Push').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    expect(updates.at(-1)).toEqual({
      listUuid: NEWS.listUuid,
      name: 'Product updates',
      description: NEWS.description,
      visible: false,
      push: true,
    });
    const row = screen.getByTestId('email-list');
    await expect.element(row).toHaveTextContent(/Product updates/);
    await expect
      .element(screen.getByRole('status').filter({ hasText: 'Product updates saved' }))
      .toBeInTheDocument();
  });

  it('sends a message only after a confirm naming the recipients, then shows it sent', async () => {
    const sent: Record<string, unknown>[] = [];
    let sends: NotificationSend[] = [];
    let subscribers = 3;
    stubFetch({
      [empEndpoints.list.url]: () =>
        jsonResponse(200, lists([{ ...NEWS, subscribers_count: subscribers }])),
      [empEndpoints.sends.url]: () => jsonResponse(200, page(sends)),
      [empEndpoints.send.url]: async (request) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        if (sent.length === 1) return invalid('listUuid', NOTIFICATION_MESSAGES.noSubscribers);
        sends = [sendOf(String(body.subject))];
        return jsonResponse(201, { send: sends[0] });
      },
    });
    const { screen } = await renderApp('/en/admin/notifications/email-lists', admin);
    await expect.element(screen.getByText('Nothing sent yet.')).toBeVisible();
    // Two more joined since the page was loaded: the confirm counts them.
    subscribers = 5;
    await screen.getByRole('button', { name: 'Send a message to Product news' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Message to Product news' });
    await dialog.getByLabelText('Subject').fill('Lisbon is open');
    await dialog.getByLabelText('Message').fill('Our **new servers** are open.');

    // Answered no: nothing goes out, the message is kept.
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    let confirmation = screen.getByRole('dialog', { name: 'Send this message?' });
    await expect
      .element(confirmation)
      .toHaveTextContent(/It goes to the subscribers of Product news\. Recipients: 5\./);
    await confirmation.getByRole('button', { name: 'No' }).click();
    await expect.element(confirmation).not.toBeInTheDocument();
    expect(sent).toEqual([]);
    await expect.element(dialog.getByLabelText('Subject')).toHaveValue('Lisbon is open');

    // A refusal stays in the dialog with what was typed.
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    confirmation = screen.getByRole('dialog', { name: 'Send this message?' });
    await confirmation.getByRole('button', { name: 'Send', exact: true }).click();
    await expect
      .element(dialog.getByText('Nobody on this list can receive e-mail yet.'))
      .toBeVisible();
    await expect
      .element(dialog.getByLabelText('Message'))
      .toHaveValue('Our **new servers** are open.');

    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    confirmation = screen.getByRole('dialog', { name: 'Send this message?' });
    await confirmation.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    expect(sent.at(-1)).toEqual({
      listUuid: NEWS.listUuid,
      subject: 'Lisbon is open',
      body: 'Our **new servers** are open.',
    });
    const done = screen.getByTestId('send');
    await expect.element(done).toHaveAttribute('data-status', 'done');
    await expect.element(done).toHaveTextContent(/3 sent, 0 failed of 3/);
    await expect
      .element(done.getByRole('progressbar', { name: 'Progress of Lisbon is open' }))
      .toHaveAttribute('aria-valuenow', '100');
  });

  it('stops a message under way after a confirm saying who will not get it', async () => {
    const stops: unknown[] = [];
    let send: NotificationSend = {
      ...sendOf('Lisbon is open'),
      status: 'sending',
      total: 40,
      sent: 10,
      finished_at: null,
    };
    stubFetch({
      [empEndpoints.list.url]: () => jsonResponse(200, lists([NEWS])),
      [empEndpoints.sends.url]: () => jsonResponse(200, page([send])),
      [empEndpoints.cancelSend.url]: async (request) => {
        stops.push(await request.json());
        send = { ...send, status: 'canceled', finished_at: '2026-11-21T10:01:00.000Z' };
        return jsonResponse(200, { send });
      },
    });
    const { screen } = await renderApp('/en/admin/notifications/email-lists', admin);
    const stop = screen.getByRole('button', { name: 'Stop sending Lisbon is open' });
    await stop.click();
    const confirmation = screen.getByRole('dialog', { name: 'Stop sending this message?' });
    await expect
      .element(confirmation)
      .toHaveTextContent(
        /“Lisbon is open” will not go to the 30 subscribers who have not had it yet/,
      );
    await confirmation.getByRole('button', { name: 'No' }).click();
    expect(stops).toEqual([]);

    await stop.click();
    await screen
      .getByRole('dialog', { name: 'Stop sending this message?' })
      .getByRole('button', { name: 'Stop sending' })
      .click();
    await expect.element(screen.getByTestId('send')).toHaveAttribute('data-status', 'canceled');
    expect(stops).toEqual([{ send_id: 7 }]);
    await expect.element(screen.getByTestId('send')).toHaveTextContent(/Canceled/);
    await expect.element(stop).not.toBeInTheDocument();
  });
});
