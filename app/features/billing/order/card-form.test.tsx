import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { CardForm, formatCardNumber, formatExpiry, luhnValid, useCardForm } from '../card-form.tsx';

const t = (key: string) => i18next.t(key);
const TOKENIZE = '/sandbox/tokenize';

function Harness({ onToken }: { onToken: (token: string | null) => void }) {
  const card = useCardForm({ tokenizeUrl: TOKENIZE });
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await card.tokenize();
        onToken(result?.token ?? null);
      }}
    >
      <CardForm card={card} />
      <button type="submit">Pay</button>
    </form>
  );
}

async function fill(screen: Awaited<ReturnType<typeof render>>, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await screen.getByLabelText(label, { exact: true }).fill(value);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('card form', () => {
  it('formats and checks what is typed', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('1231')).toBe('12/31');
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });

  it('labels the fields for autofill and shows the brand', async () => {
    const screen = await render(<Harness onToken={() => {}} />);
    const number = screen.getByLabelText('Card number');
    await expect.element(number).toHaveAttribute('autocomplete', 'cc-number');
    await expect.element(number).toHaveAttribute('inputmode', 'numeric');
    await expect
      .element(screen.getByLabelText('Expiry (MM/YY)'))
      .toHaveAttribute('autocomplete', 'cc-exp');
    await expect.element(screen.getByLabelText('CVC')).toHaveAttribute('autocomplete', 'cc-csc');
    await expect
      .element(screen.getByLabelText('Name on card'))
      .toHaveAttribute('autocomplete', 'cc-name');
    await number.fill('4242424242424242');
    await expect.element(number).toHaveValue('4242 4242 4242 4242');
    await expect.element(screen.getByTestId('card-brand')).toHaveTextContent('Visa');
  });

  it('says what is wrong before sending, focusing the first field', async () => {
    const seen = stubFetch({});
    const screen = await render(<Harness onToken={() => {}} />);
    await fill(screen, { 'Card number': '4242424242424241', CVC: '12' });
    await screen.getByRole('button', { name: 'Pay' }).click();
    await expect
      .element(screen.getByLabelText('Card number'))
      .toHaveAccessibleDescription(t('billing_errors.card_number_invalid'));
    await expect.element(screen.getByLabelText('Card number')).toHaveFocus();
    await expect
      .element(screen.getByLabelText('Expiry (MM/YY)'))
      .toHaveAccessibleDescription(t('input_errors.field_is_required'));
    await expect
      .element(screen.getByLabelText('CVC'))
      .toHaveAccessibleDescription(t('billing_errors.card_cvc_invalid'));
    expect(seen).toHaveLength(0);
  });

  it('sends the details to the tokenizer and hands back the token', async () => {
    const seen = stubFetch({ [TOKENIZE]: () => jsonResponse(200, { id: 'tok_123' }) });
    const tokens: (string | null)[] = [];
    const screen = await render(<Harness onToken={(token) => tokens.push(token)} />);
    await fill(screen, {
      'Card number': '4242424242424242',
      'Expiry (MM/YY)': '1240',
      CVC: '123',
      'Name on card': 'Ann Lee',
    });
    await screen.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(() => tokens).toEqual(['tok_123']);
    expect(await seen[0]?.json()).toEqual({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
      name: 'Ann Lee',
    });
  });

  it('puts a refusal under the field it names, keeping what was typed', async () => {
    stubFetch({
      [TOKENIZE]: () =>
        jsonResponse(402, {
          error: {
            code: 'incorrect_cvc',
            message: "Your card's security code is incorrect.",
            param: 'cvc',
          },
        }),
    });
    const tokens: (string | null)[] = [];
    const screen = await render(<Harness onToken={(token) => tokens.push(token)} />);
    await fill(screen, {
      'Card number': '4242424242424242',
      'Expiry (MM/YY)': '1240',
      CVC: '123',
      'Name on card': 'Ann Lee',
    });
    await screen.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(() => tokens).toEqual([null]);
    await expect
      .element(screen.getByLabelText('CVC'))
      .toHaveAccessibleDescription(t('billing_errors.card_cvc_invalid'));
    await expect.element(screen.getByLabelText('CVC')).toHaveFocus();
    await expect.element(screen.getByLabelText('Card number')).toHaveValue('4242 4242 4242 4242');
  });
});
