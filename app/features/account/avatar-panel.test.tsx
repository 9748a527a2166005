import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { ScriptedXhr } from '../../test/scripted-xhr.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  ScriptedXhr.last = undefined;
});

// §5/§7 the profile picture goes up as form data with upload progress.
describe('the profile picture upload', () => {
  it('shows a progress bar that advances while the picture travels, then the picture', async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const { screen } = await renderApp('/en/account/profile', testUser());
    const picture = new File([new Uint8Array(4096)], 'me.png', { type: 'image/png' });
    await userEvent.upload(screen.getByTestId('photo-input'), picture);

    const bar = screen.getByRole('progressbar', { name: 'Uploading your picture' });
    await expect.element(bar).toBeVisible();
    await expect.element(bar).toHaveAttribute('aria-valuenow', '0');
    const xhr = ScriptedXhr.current();
    expect(xhr.url).toBe('/api/account/v1/profile/update');
    expect((xhr.body as FormData).get('photo')).toBeInstanceOf(File);

    xhr.progress(1024, 4096);
    await expect.element(bar).toHaveAttribute('aria-valuenow', '25');
    xhr.progress(3072, 4096);
    await expect.element(bar).toHaveAttribute('aria-valuenow', '75');
    const fill = bar.element().firstElementChild as HTMLElement;
    expect(fill.style.width).toBe('75%');
    // The bar is drawn at that width (after its short transition), not only announced.
    const track = bar.element().getBoundingClientRect().width;
    await expect.poll(() => fill.getBoundingClientRect().width / track).toBeCloseTo(0.75, 2);
    await expect
      .element(screen.getByRole('button', { name: 'Upload a picture' }))
      .toHaveAttribute('aria-busy', 'true');

    xhr.respond(200, JSON.stringify({ user: testUser({ photo: '/media/avatars/ann.webp' }) }));
    await expect.element(bar).not.toBeInTheDocument();
    await expect
      .element(screen.getByTestId('profile-photo'))
      .toHaveAttribute('src', '/media/avatars/ann.webp');
    await expect.element(screen.getByText('Your profile picture has been updated.')).toBeVisible();
  });

  it('takes the bar away when the upload fails, and says why', async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const { screen } = await renderApp('/en/account/profile', testUser());
    await userEvent.upload(
      screen.getByTestId('photo-input'),
      new File([new Uint8Array(16)], 'me.png', { type: 'image/png' }),
    );
    const bar = screen.getByRole('progressbar', { name: 'Uploading your picture' });
    ScriptedXhr.current().progress(8, 16);
    await expect.element(bar).toHaveAttribute('aria-valuenow', '50');
    ScriptedXhr.current().onerror?.();
    await expect.element(bar).not.toBeInTheDocument();
    await expect
      .element(screen.getByTestId('photo-error'))
      .toHaveTextContent('Could not reach the server');
  });
});
