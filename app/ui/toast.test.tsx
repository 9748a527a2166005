import i18next from 'i18next';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { ApiError } from '../api/api-error.ts';
import { notify, notifyRequestError, REQUEST_ERROR_DURATION_MS, Toaster } from './toast.tsx';

afterEach(() => {
  toast.dismiss();
  vi.restoreAllMocks();
});

describe('toasts', () => {
  it('shows a success toast with its translated text and second line', async () => {
    const screen = await render(<Toaster />);
    notify.success('toasts.change_email_p1', { description: 'toasts.change_email_p2' });
    await expect.element(screen.getByText('Check your new email address.')).toBeVisible();
    await expect
      .element(screen.getByText('We sent you a link to confirm the change.'))
      .toBeVisible();
    await expect.element(screen.getByRole('region', { name: /Notifications/ })).toBeInTheDocument();
  });

  it("shows a request error's first info message as a danger toast", async () => {
    const screen = await render(<Toaster />);
    notifyRequestError(
      new ApiError(409, 'conflict', { info: ['toasts.email_change_failed_title'] }),
    );
    const message = screen.getByText('Unable to change email address.');
    await expect.element(message).toBeVisible();
    await expect
      .element(message.element().closest<HTMLElement>('[data-sonner-toast]'))
      .toHaveAttribute('data-type', 'error');
  });

  it("falls back to the code's message, and to a network message", async () => {
    const screen = await render(<Toaster />);
    notifyRequestError(new ApiError(404, 'not_found'));
    await expect.element(screen.getByText(i18next.t('errors.not_found'))).toBeVisible();
    notifyRequestError(new ApiError(0, 'network'));
    await expect.element(screen.getByText(i18next.t('ui.request_error.network'))).toBeVisible();
  });

  it('shows nothing for a cancelled request and only logs other errors', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const screen = await render(<Toaster />);
    notifyRequestError(new DOMException('aborted', 'AbortError'));
    const bug = new TypeError('x is undefined');
    notifyRequestError(bug);
    notify.success('toasts.password_changed');
    await expect.element(screen.getByText('Your password has been changed.')).toBeVisible();
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(1);
    expect(logged).toHaveBeenCalledWith(bug);
  });

  it('keeps a request error on screen for 5 seconds (§8)', async () => {
    expect(REQUEST_ERROR_DURATION_MS).toBe(5_000);
    const screen = await render(<Toaster />);
    const started = performance.now();
    notifyRequestError(new ApiError(500, 'internal', { info: ['toasts.delete_account'] }));
    const message = screen.getByText('Your account will be deleted.');
    await expect.element(message).toBeVisible();
    await expect.element(message, { timeout: 8_000 }).not.toBeInTheDocument();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(4_900);
    expect(elapsed).toBeLessThan(7_000);
  });
});
