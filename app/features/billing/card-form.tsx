import { type ChangeEvent, useCallback, useMemo, useRef, useState } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BILLING_MESSAGES } from '#shared/contracts/billing.ts';
import { fullExpiryYear, isCardExpired } from '#shared/validation/card-expiry.ts';
import { FormError, FormField } from '../../ui/form-field.tsx';
import { type CardDetails, type CardErrorField, tokenizeCard } from './card-token.ts';

/*
 * The card form, for every screen that takes a new card (order, reactivate, bonus upgrade,
 * fix payment method, payment methods). One hook holds the fields and talks to the
 * tokenizer; one component draws them. The card number never reaches our API: `tokenize()`
 * sends it to the payment service's `tokenize_url` and hands back only the token.
 *
 *   const card = useCardForm({ tokenizeUrl: service.tokenize_url });
 *   …
 *   <form onSubmit={…}>
 *     <CardForm card={card} />
 *     <Button type="submit" loading={card.busy || sending}>Pay</Button>
 *   </form>
 *   …
 *   const result = await card.tokenize();   // checks the fields (focusing the first wrong
 *   if (!result) return;                     // one) and POSTs them; null: the message is shown
 *   try { await call(endpoint, { body: { token: result.token, … } }) }
 *   catch (e) { card.setFieldError('number', e.validation.card?.[0]) }   // a decline
 *
 * - `fields`: each field's value as typed and its message key (read-only view).
 * - `brand`: the card network read from the number's first digits, or null.
 * - `tokenize()`: `{ token }`, or null when a field is wrong, the tokenizer refused the card
 *   (its message goes under the field it names, or above the fields) or could not be reached.
 *   The values stay as typed either way.
 * - `setFieldError(field, messageKey)`: a server's message under a field (a decline under the
 *   number), focusing it; undefined clears it.
 * - `validate()`: the same checks as `tokenize()` without sending anything.
 * - `reset()`: empties the fields (after a card was saved).
 * - `busy`: true while the tokenizer is being asked.
 * - `form`: the react-hook-form instance behind the fields, for a screen that needs more.
 * Messages are i18n keys (billing_errors.*, input_errors.*), shown translated by the fields.
 */

export type CardField = 'number' | 'expiry' | 'cvc' | 'name';

export interface CardValues {
  /** Grouped in fours as typed: "4242 4242 4242 4242". */
  number: string;
  /** "MM/YY". */
  expiry: string;
  cvc: string;
  name: string;
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay';

export interface UseCardFormOptions {
  /** The payment service's tokenizer (serviceView.tokenize_url); null: cards cannot be taken. */
  tokenizeUrl: string | null | undefined;
  /** Prefills "Name on card". */
  defaultName?: string;
}

export interface CardFormApi {
  fields: Record<CardField, { value: string; error: string | undefined }>;
  brand: CardBrand | null;
  tokenize: () => Promise<{ token: string } | null>;
  setFieldError: (field: CardField, messageKey: string | undefined) => void;
  validate: () => Promise<boolean>;
  reset: () => void;
  busy: boolean;
  form: UseFormReturn<CardValues>;
  /** A refusal about no one field (network, processing): shown above the fields. */
  formError: string | undefined;
}

const REQUIRED = 'input_errors.field_is_required';

const digitsOf = (value: string) => value.replace(/\D/g, '');

// The networks' leading digits (IIN ranges), enough to name the card as it is typed.
const BRANDS: readonly [CardBrand, RegExp][] = [
  ['amex', /^3[47]/],
  ['diners', /^3(0[0-5]|[689])/],
  ['jcb', /^35(2[89]|[3-8])/],
  ['visa', /^4/],
  ['mastercard', /^(5[1-5]|2(2[2-9]|[3-6]|7[01]|720))/],
  ['discover', /^(6011|65|64[4-9])/],
  ['unionpay', /^62/],
];

export const BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

export function cardBrand(number: string): CardBrand | null {
  const digits = digitsOf(number);
  return BRANDS.find(([, pattern]) => pattern.test(digits))?.[0] ?? null;
}

/** Groups of four (American Express: 4-6-5), at most 19 digits. */
export function formatCardNumber(value: string): string {
  const digits = digitsOf(value).slice(0, 19);
  if (cardBrand(digits) === 'amex') {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)]
      .filter(Boolean)
      .join(' ');
  }
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "MM/YY" as it is typed: a first digit above 1 is a month of its own ("4" → "04"). */
export function formatExpiry(value: string): string {
  let digits = digitsOf(value);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

function parseExpiry(expiry: string): { month: number; year: number } | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry.trim());
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: fullExpiryYear(match[2] ?? '') };
}

const RULES = {
  number: (value: string) => {
    const digits = digitsOf(value);
    if (digits === '') return REQUIRED;
    return digits.length >= 12 && digits.length <= 19 && luhnValid(digits)
      ? true
      : BILLING_MESSAGES.cardNumberInvalid;
  },
  expiry: (value: string) => {
    if (value.trim() === '') return REQUIRED;
    const expiry = parseExpiry(value);
    if (!expiry) return BILLING_MESSAGES.cardExpiryInvalid;
    // §5: expired once the first day of the expiry month has begun.
    return isCardExpired(expiry.month, expiry.year) ? BILLING_MESSAGES.cardExpired : true;
  },
  cvc: (value: string, values: CardValues) => {
    if (value === '') return REQUIRED;
    const amex = cardBrand(values.number) === 'amex';
    const ok = amex ? /^\d{4}$/.test(value) : /^\d{3,4}$/.test(value);
    return ok ? true : BILLING_MESSAGES.cardCvcInvalid;
  },
  name: (value: string) => (value.trim() === '' ? REQUIRED : true),
} as const;

function detailsOf(values: CardValues): CardDetails {
  const expiry = parseExpiry(values.expiry);
  return {
    number: digitsOf(values.number),
    exp_month: expiry?.month ?? 0,
    exp_year: expiry?.year ?? 0,
    cvc: values.cvc,
    name: values.name.trim(),
  };
}

/** The card fields' state and the tokenizer call; see the comment at the top of this file. */
export function useCardForm({ tokenizeUrl, defaultName = '' }: UseCardFormOptions): CardFormApi {
  const form = useForm<CardValues>({
    defaultValues: { number: '', expiry: '', cvc: '', name: defaultName },
  });
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string>();
  const running = useRef<Promise<{ token: string } | null> | null>(null);

  const values = form.watch();
  const { errors } = form.formState;

  const setFieldError = useCallback(
    (field: CardField, messageKey: string | undefined) => {
      if (messageKey === undefined) form.clearErrors(field);
      else form.setError(field, { type: 'server', message: messageKey }, { shouldFocus: true });
    },
    [form],
  );

  const validated = useCallback(
    () =>
      new Promise<CardValues | null>((resolve) => {
        // handleSubmit marks the form submitted (fields then re-check as they change) and
        // focuses the first wrong field.
        void form.handleSubmit(
          (checked) => resolve(checked),
          () => resolve(null),
        )();
      }),
    [form],
  );

  const tokenize = useCallback(() => {
    // A second click while the first is under way waits for the same answer.
    if (running.current) return running.current;
    const attempt = (async () => {
      setFormError(undefined);
      const checked = await validated();
      if (!checked) return null;
      if (!tokenizeUrl) {
        setFormError(BILLING_MESSAGES.serviceUnavailable);
        return null;
      }
      setBusy(true);
      try {
        const result = await tokenizeCard(tokenizeUrl, detailsOf(checked));
        if (result.ok) return { token: result.token };
        if (result.field) setFieldError(result.field satisfies CardErrorField, result.message);
        else setFormError(result.message);
        return null;
      } finally {
        setBusy(false);
      }
    })();
    running.current = attempt;
    void attempt.finally(() => {
      running.current = null;
    });
    return attempt;
  }, [tokenizeUrl, validated, setFieldError]);

  const validate = useCallback(async () => (await validated()) !== null, [validated]);

  const reset = useCallback(() => {
    form.reset({ number: '', expiry: '', cvc: '', name: defaultName });
    setFormError(undefined);
  }, [form, defaultName]);

  const fields = useMemo(() => {
    const of = (field: CardField) => ({
      value: values[field] ?? '',
      error: errors[field]?.message,
    });
    return { number: of('number'), expiry: of('expiry'), cvc: of('cvc'), name: of('name') };
  }, [values, errors]);

  return {
    fields,
    brand: cardBrand(values.number ?? ''),
    tokenize,
    setFieldError,
    validate,
    reset,
    busy,
    form,
    formError,
  };
}

/**
 * Rewrites an input's value as `format` writes it, keeping the caret after the same number of
 * digits it followed (typing in the middle of "4242 4242" does not jump to the end).
 */
function reformat(event: ChangeEvent<HTMLInputElement>, format: (value: string) => string) {
  const input = event.target;
  const caret = input.selectionStart ?? input.value.length;
  const digitsBefore = digitsOf(input.value.slice(0, caret)).length;
  const next = format(input.value);
  if (next === input.value) return;
  input.value = next;
  let position = 0;
  for (let seen = 0; position < next.length && seen < digitsBefore; position += 1) {
    if (/\d/.test(next[position] ?? '')) seen += 1;
  }
  if (document.activeElement === input) input.setSelectionRange(position, position);
}

const inputClass = (error: string | undefined) =>
  `h-10 w-full min-w-0 rounded-lg border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 read-only:bg-slate-50 ${error ? 'border-red-500' : 'border-[#dfe1e6]'}`;

export interface CardFormProps {
  card: CardFormApi;
  /**
   * While the page sends the order: the fields stay focusable (not disabled), so a refusal
   * can still move focus to the field it is about.
   */
  readOnly?: boolean;
  /** Prefix for the inputs' ids, when a page shows two card forms. */
  id?: string;
}

/**
 * The four card fields, labelled for people and for the browser's card autofill
 * (cc-number, cc-exp, cc-csc, cc-name), with numeric keyboards on phones.
 */
export function CardForm({ card, readOnly = false, id = 'card' }: CardFormProps) {
  const { t } = useTranslation();
  const { register } = card.form;
  const { fields, brand } = card;
  const number = register('number', { validate: RULES.number });
  const expiry = register('expiry', { validate: RULES.expiry });
  const cvc = register('cvc', { validate: RULES.cvc });
  const name = register('name', { validate: RULES.name });
  return (
    <div className="flex flex-col gap-4" data-testid="card-form">
      <FormError message={card.formError} />
      <FormField
        id={`${id}-number`}
        label={t('card_form.number')}
        error={fields.number.error}
        required
      >
        {(control) => (
          <div className="relative">
            <input
              {...number}
              {...control}
              onChange={(event) => {
                reformat(event, formatCardNumber);
                return number.onChange(event);
              }}
              type="text"
              inputMode="numeric"
              autoComplete="cc-number"
              autoCorrect="off"
              spellCheck={false}
              placeholder="1234 1234 1234 1234"
              maxLength={23}
              readOnly={readOnly || card.busy}
              className={`${inputClass(fields.number.error)} pr-36 tabular-nums`}
            />
            <span
              className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-xs font-semibold text-slate-600"
              data-testid="card-brand"
              aria-live="polite"
            >
              {brand && (
                <>
                  <span className="sr-only">{t('card_form.brand')} </span>
                  {BRAND_NAMES[brand]}
                </>
              )}
            </span>
          </div>
        )}
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField
          id={`${id}-expiry`}
          label={t('card_form.expiry')}
          error={fields.expiry.error}
          required
        >
          {(control) => (
            <input
              {...expiry}
              {...control}
              onChange={(event) => {
                reformat(event, formatExpiry);
                return expiry.onChange(event);
              }}
              type="text"
              inputMode="numeric"
              autoComplete="cc-exp"
              autoCorrect="off"
              spellCheck={false}
              placeholder={t('card_form.expiry_placeholder')}
              maxLength={5}
              readOnly={readOnly || card.busy}
              className={`${inputClass(fields.expiry.error)} tabular-nums`}
            />
          )}
        </FormField>
        <FormField id={`${id}-cvc`} label={t('card_form.cvc')} error={fields.cvc.error} required>
          {(control) => (
            <input
              {...cvc}
              {...control}
              onChange={(event) => {
                reformat(event, (value) => digitsOf(value).slice(0, 4));
                return cvc.onChange(event);
              }}
              type="text"
              inputMode="numeric"
              autoComplete="cc-csc"
              autoCorrect="off"
              spellCheck={false}
              placeholder="123"
              maxLength={4}
              readOnly={readOnly || card.busy}
              className={`${inputClass(fields.cvc.error)} tabular-nums`}
            />
          )}
        </FormField>
      </div>
      <FormField id={`${id}-name`} label={t('card_form.name')} error={fields.name.error} required>
        {(control) => (
          <input
            {...name}
            {...control}
            type="text"
            autoComplete="cc-name"
            autoCapitalize="words"
            spellCheck={false}
            readOnly={readOnly || card.busy}
            className={inputClass(fields.name.error)}
          />
        )}
      </FormField>
    </div>
  );
}
