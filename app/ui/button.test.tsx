import { describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { Button } from './button.tsx';
import { EmptyState } from './empty-state.tsx';
import { LoadingBlock } from './spinner.tsx';

describe('Button', () => {
  it('keeps its width and name while loading, says aria-busy and ignores clicks', async () => {
    const onClick = vi.fn();
    const screen = await render(<Button onClick={onClick}>Save changes</Button>);
    const button = screen.getByRole('button', { name: 'Save changes' });
    const width = button.element().getBoundingClientRect().width;
    await button.click();
    expect(onClick).toHaveBeenCalledTimes(1);

    await screen.rerender(
      <Button onClick={onClick} loading>
        Save changes
      </Button>,
    );
    await expect.element(button).toHaveAttribute('aria-busy', 'true');
    await expect.element(button).toHaveAttribute('aria-disabled', 'true');
    expect(button.element().getBoundingClientRect().width).toBe(width);
    // Playwright will not click what says aria-disabled; a real user still can.
    await button.click({ force: true });
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});

describe('loading and empty states', () => {
  it('announces loading', async () => {
    const screen = await render(<LoadingBlock />);
    await expect.element(screen.getByRole('status')).toHaveTextContent('Loading…');
  });

  it('shows an empty state with its action', async () => {
    const screen = await render(
      <EmptyState
        icon={<span>★</span>}
        title="No invoices yet"
        text="Invoices appear after your first payment."
        action={<Button>Choose a plan</Button>}
      />,
    );
    await expect.element(screen.getByRole('heading', { name: 'No invoices yet' })).toBeVisible();
    await expect
      .element(screen.getByText('Invoices appear after your first payment.'))
      .toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Choose a plan' })).toBeVisible();
  });
});
