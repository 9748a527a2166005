import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { CodeInput } from './code-input.tsx';

function Harness({ error }: { error?: string }) {
  const [value, setValue] = useState('');
  return (
    <>
      <CodeInput label="Code" value={value} onChange={setValue} error={error} />
      <output data-testid="value">{value}</output>
    </>
  );
}

const digit = (screen: Awaited<ReturnType<typeof render>>, n: number) =>
  screen.getByTestId(`code-digit-${n}`);

describe('six-digit code input', () => {
  it('moves on as digits are typed and ignores anything else', async () => {
    const screen = await render(<Harness />);
    await digit(screen, 1).click();
    await userEvent.keyboard('12a3');
    await expect.element(screen.getByTestId('value')).toHaveTextContent('123');
    await expect.element(digit(screen, 4)).toHaveFocus();
    await expect.element(screen.getByRole('group', { name: 'Code' })).toBeVisible();
    await expect.element(digit(screen, 1)).toHaveAccessibleName('Digit 1 of 6');
  });

  it('fills every box from a pasted code', async () => {
    const screen = await render(<Harness />);
    await digit(screen, 1).click();
    const input = digit(screen, 1).element() as HTMLInputElement;
    const data = new DataTransfer();
    data.setData('text', '987 654');
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    await expect.element(screen.getByTestId('value')).toHaveTextContent('987654');
    await expect.element(digit(screen, 6)).toHaveValue('4');
  });

  it('steps back with Backspace', async () => {
    const screen = await render(<Harness />);
    await digit(screen, 1).click();
    await userEvent.keyboard('4567');
    await userEvent.keyboard('{Backspace}{Backspace}');
    await expect.element(screen.getByTestId('value')).toHaveTextContent('45');
    await expect.element(digit(screen, 3)).toHaveFocus();
  });

  it('shows an error under the boxes and moves focus to the last digit (§8)', async () => {
    const screen = await render(<Harness />);
    await digit(screen, 1).click();
    screen.rerender(<Harness error="errors.code_incorrect" />);
    await expect.element(digit(screen, 6)).toHaveFocus();
    await expect.element(digit(screen, 6)).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(digit(screen, 6))
      .toHaveAccessibleDescription(
        'The code is incorrect. Check your authenticator app and try again.',
      );
  });
});
