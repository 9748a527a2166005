import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { z } from 'zod';
import { customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { EntityForm } from './entity-form.tsx';

// The admin kit's one form for create and edit, as the create-user dialog uses it.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const EMPTY_LIST = { items: [], controls: { page: 1, per_page: 20, total: 0, last_page: 1 } };

afterEach(() => vi.unstubAllGlobals());

async function openCreate() {
  const { screen } = await renderApp('/en/admin/customers', admin);
  await screen.getByRole('button', { name: 'Create user' }).click();
  const dialog = screen.getByRole('dialog', { name: 'New user' });
  await expect.element(dialog).toBeVisible();
  return dialog;
}

describe('admin entity form', () => {
  it('checks the fields with the endpoint’s own schema before sending', async () => {
    const seen = stubFetch({ [customerEndpoints.list.url]: () => jsonResponse(200, EMPTY_LIST) });
    const dialog = await openCreate();
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect
      .element(dialog.getByLabelText('Name'))
      .toHaveAccessibleDescription('This field is required.');
    await expect.element(dialog.getByLabelText('Name')).toHaveFocus();
    expect(seen.some((request) => request.method === 'POST')).toBe(false);
  });

  it('shows the server’s errors under their fields, and keeps what was typed', async () => {
    stubFetch({
      [customerEndpoints.list.url]: () => jsonResponse(200, EMPTY_LIST),
      [customerEndpoints.create.url]: () =>
        jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { email: ['input_errors.email_taken'] },
        }),
    });
    const dialog = await openCreate();
    await dialog.getByLabelText('Name').fill('Taken Person');
    await dialog.getByLabelText('E-mail').fill('taken@example.com');
    await dialog.getByLabelText('Password', { exact: true }).fill('Strong#pass123');
    await dialog.getByLabelText('Confirm password').fill('Strong#pass123');
    await dialog.getByLabelText('Role').selectOptions('Author');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect
      .element(dialog.getByLabelText('E-mail'))
      .toHaveAccessibleDescription('An account with this e-mail address already exists.');
    await expect.element(dialog.getByLabelText('E-mail')).toHaveFocus();
    await expect.element(dialog.getByLabelText('Name')).toHaveValue('Taken Person');
    await expect.element(dialog.getByLabelText('Role')).toHaveValue('AUTHOR');
  });

  it('sends null for an empty nullable choice, and numbers for numeric ones', async () => {
    const sent: unknown[] = [];
    const schema = z.object({ country_id: z.number().int().positive().nullable() });
    const screen = await render(
      <EntityForm
        schema={schema}
        defaultValues={{ country_id: null }}
        fields={[
          {
            name: 'country_id',
            label: 'staff.customers.fields.country',
            type: 'select',
            nullable: true,
            options: [{ value: 7, label: 'Seven' }],
          },
        ]}
        submitLabel="Save"
        onSubmit={async (values) => {
          sent.push(values);
        }}
      />,
    );
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => sent).toEqual([{ country_id: null }]);
    await screen.getByLabelText('Country').selectOptions('Seven');
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => sent.at(-1)).toEqual({ country_id: 7 });
  });
});
