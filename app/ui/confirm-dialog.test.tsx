import i18next from 'i18next';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { ApiError } from '../api/api-error.ts';
import { confirm } from './confirm.ts';
import { ConfirmDialog, ConfirmHost } from './confirm-dialog.tsx';

function deferred() {
  let resolve: () => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('confirm()', () => {
  it("has 'No' and 'Yes' by default and resolves false on cancel", async () => {
    const screen = await render(<ConfirmHost />);
    const answer = confirm({ title: 'Delete this card?', text: 'It cannot be undone.' });
    const dialog = screen.getByRole('dialog', { name: 'Delete this card?' });
    await expect.element(dialog).toHaveAccessibleDescription('It cannot be undone.');
    await expect.element(screen.getByRole('button', { name: 'Yes' })).toBeVisible();
    await screen.getByRole('button', { name: 'No' }).click();
    await expect(answer).resolves.toBe(false);
    await expect.element(dialog).not.toBeInTheDocument();
  });

  it('resolves false on Escape', async () => {
    const screen = await render(<ConfirmHost />);
    const answer = confirm({ title: 'Leave?' });
    await expect.element(screen.getByRole('dialog')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect(answer).resolves.toBe(false);
  });

  it('resolves true on yes, loading the yes button while the action runs', async () => {
    const screen = await render(<ConfirmHost />);
    const action = deferred();
    const onConfirm = vi.fn(() => action.promise);
    const answer = confirm({
      title: 'Log out the device?',
      actionName: 'device-logout',
      data: { id: 7 },
      icon: 'danger',
      yes: { label: 'Log out', className: 'w-40' },
      no: { label: 'Keep' },
      onConfirm,
    });
    const yes = screen.getByRole('button', { name: 'Log out' });
    await expect.element(yes).toHaveClass('w-40');
    await yes.click();
    await expect.element(yes).toHaveAttribute('aria-busy', 'true');
    await expect.element(screen.getByRole('button', { name: 'Keep' })).toBeDisabled();
    expect(onConfirm).toHaveBeenCalledWith('', { id: 7 }, 'device-logout');
    action.resolve();
    await expect(answer).resolves.toBe(true);
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
  });

  it('resolves true at once without an action', async () => {
    const screen = await render(<ConfirmHost />);
    const answer = confirm({ title: 'Continue?' });
    await screen.getByRole('button', { name: 'Yes' }).click();
    await expect(answer).resolves.toBe(true);
  });

  it('cancels an older question when a newer one arrives', async () => {
    const screen = await render(<ConfirmHost />);
    const first = confirm({ title: 'First?' });
    const second = confirm({ title: 'Second?' });
    await expect(first).resolves.toBe(false);
    await expect.element(screen.getByRole('dialog', { name: 'Second?' })).toBeVisible();
    await screen.getByRole('button', { name: 'Yes' }).click();
    await expect(second).resolves.toBe(true);
  });

  it('runs the action only once the password is filled in', async () => {
    const screen = await render(<ConfirmHost />);
    const onConfirm = vi.fn();
    const answer = confirm({ title: 'Delete account?', password: true, data: 'me', onConfirm });
    const password = screen.getByLabelText('Password');
    await screen.getByRole('button', { name: 'Yes' }).click();
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(password)
      .toHaveAccessibleDescription(i18next.t('input_errors.field_is_required'));
    await expect.element(password).toHaveFocus();
    expect(onConfirm).not.toHaveBeenCalled();
    await password.fill('correct horse');
    await expect.element(password).not.toHaveAttribute('aria-invalid');
    await userEvent.keyboard('{Enter}');
    await expect(answer).resolves.toBe(true);
    expect(onConfirm).toHaveBeenCalledWith('correct horse', 'me', undefined);
  });

  it('shows a server error under the password field and stays open (§8)', async () => {
    const screen = await render(<ConfirmHost />);
    const onConfirm = vi.fn().mockRejectedValueOnce(
      new ApiError(422, 'validation_failed', {
        validation: { password: ['toasts.email_change_failed_text', 'second'] },
      }),
    );
    const answer = confirm({ title: 'Disable 2FA?', password: true, onConfirm });
    const password = screen.getByLabelText('Password');
    await password.fill('wrong');
    const yes = screen.getByRole('button', { name: 'Yes' });
    await yes.click();
    await expect
      .element(password)
      .toHaveAccessibleDescription('Please sign in to a different account.');
    await expect.element(yes).not.toHaveAttribute('aria-busy');
    onConfirm.mockRejectedValueOnce(
      new ApiError(403, 'forbidden', { info: ['toasts.email_change_failed_title'] }),
    );
    await yes.click();
    await expect.element(password).toHaveAccessibleDescription('Unable to change email address.');
    await screen.getByRole('button', { name: 'No' }).click();
    await expect(answer).resolves.toBe(false);
  });

  it('shows an action error without a password field as a form error', async () => {
    const screen = await render(<ConfirmHost />);
    const onConfirm = vi.fn().mockRejectedValue(new ApiError(404, 'not_found'));
    confirm({ title: 'Remove?', onConfirm });
    await screen.getByRole('button', { name: 'Yes' }).click();
    await expect
      .element(screen.getByRole('alert'))
      .toHaveTextContent(i18next.t('errors.not_found'));
    await expect.element(screen.getByRole('dialog')).toBeVisible();
  });
});

function Controlled({ onConfirm }: { onConfirm: () => Promise<void> }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        reopen
      </button>
      <ConfirmDialog
        open={open}
        onResult={() => setOpen(false)}
        title="Revoke?"
        password
        onConfirm={onConfirm}
      />
    </>
  );
}

describe('ConfirmDialog', () => {
  it('resets the password and its error when closed', async () => {
    const onConfirm = vi
      .fn()
      .mockRejectedValue(
        new ApiError(422, 'validation_failed', { validation: { password: ['errors.forbidden'] } }),
      );
    const screen = await render(<Controlled onConfirm={onConfirm} />);
    await screen.getByLabelText('Password').fill('secret');
    await screen.getByRole('button', { name: 'Yes' }).click();
    await expect.element(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    await screen.getByRole('button', { name: 'No' }).click();
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
    await screen.getByRole('button', { name: 'reopen' }).click();
    const password = screen.getByLabelText('Password');
    await expect.element(password).toHaveValue('');
    await expect.element(password).not.toHaveAttribute('aria-invalid');
    await expect
      .element(screen.getByRole('button', { name: 'Yes' }))
      .not.toHaveAttribute('aria-busy');
  });
});
