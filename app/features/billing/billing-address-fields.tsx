import { useCallback, useId, useMemo, useState } from 'react';
import { type FieldPath, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { BillingAddress } from '#shared/contracts/billing.ts';
import { FieldSlot } from '../../ui/form-field.tsx';
import { Select, type SelectOption } from '../../ui/select.tsx';
import { TextInput } from '../../ui/text-input.tsx';

/*
 * The billing address (§3 users_billing_address): printed on invoices as the buyer's. The
 * order screens show it as a section collapsed by default (most people never need it); the
 * payment-methods screen can show it open. Like the card form, one hook holds the values and
 * one component draws them:
 *
 *   const address = useBillingAddressForm();
 *   useEffect(() => { if (saved) address.prefill(saved) }, [saved]);   // from the server
 *   <BillingAddressFields address={address} />
 *   … body: { billing_address: address.value() }   // undefined when left empty
 *   … catch (e) { address.applyErrors(e.validation) }   // billing_address.city → City
 *
 * Every field is optional (the contract's defaults are empty strings); limits are the
 * contract's lengths.
 */

export const ADDRESS_FIELDS = [
  'name',
  'company',
  'line1',
  'line2',
  'city',
  'postal_code',
  'region',
  'country',
  'vat_id',
] as const satisfies readonly (keyof BillingAddress)[];
type AddressField = (typeof ADDRESS_FIELDS)[number];

const EMPTY: BillingAddress = {
  name: '',
  company: '',
  line1: '',
  line2: '',
  city: '',
  postal_code: '',
  region: '',
  country: '',
  vat_id: '',
};

// billingAddress in shared/contracts/billing.ts.
const MAX_LENGTH: Record<Exclude<AddressField, 'country'>, number> = {
  name: 200,
  company: 200,
  line1: 200,
  line2: 200,
  city: 100,
  postal_code: 20,
  region: 100,
  vat_id: 32,
};

// ISO 3166-1 alpha-2, named in the page's language by Intl.
const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ ' +
  'BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM ' +
  'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS ' +
  'GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
  'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
  'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
  'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
  'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
  'VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

function countryOptions(lang: string): SelectOption<string>[] {
  const names = new Intl.DisplayNames([lang], { type: 'region' });
  const collator = new Intl.Collator(lang);
  return COUNTRY_CODES.map((code) => ({ value: code, name: names.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.name, b.name),
  );
}

const hasAny = (address: BillingAddress) =>
  ADDRESS_FIELDS.some((field) => address[field].trim() !== '');

export interface BillingAddressFormApi {
  form: UseFormReturn<BillingAddress>;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The server's saved address: fills the fields unless the person already typed. */
  prefill: (address: BillingAddress | null | undefined) => void;
  /** The address to send, trimmed; undefined when every field is empty. */
  value: () => BillingAddress | undefined;
  /** Checks the lengths, opening the section and focusing the first wrong field. */
  validate: () => Promise<boolean>;
  /**
   * Puts a server's messages (errors_validation) under their fields, opening the section;
   * takes `billing_address.city` or `city`. Returns true when one was shown.
   */
  applyErrors: (validation: Record<string, string[]>) => boolean;
}

export function useBillingAddressForm(
  options: { initialOpen?: boolean } = {},
): BillingAddressFormApi {
  const form = useForm<BillingAddress>({ defaultValues: EMPTY });
  const [open, setOpen] = useState(options.initialOpen ?? false);

  const prefill = useCallback(
    (address: BillingAddress | null | undefined) => {
      if (!address || form.formState.isDirty) return;
      form.reset({ ...EMPTY, ...address });
    },
    [form],
  );

  const value = useCallback(() => {
    const values = form.getValues();
    const trimmed = Object.fromEntries(
      ADDRESS_FIELDS.map((field) => [field, (values[field] ?? '').trim()]),
    ) as BillingAddress;
    return hasAny(trimmed) ? trimmed : undefined;
  }, [form]);

  const validate = useCallback(async () => {
    const ok = await form.trigger();
    if (!ok) {
      setOpen(true);
      // The fields exist once the section is open.
      requestAnimationFrame(() => {
        const first = ADDRESS_FIELDS.find((field) => form.getFieldState(field).error);
        if (first) form.setFocus(first);
      });
    }
    return ok;
  }, [form]);

  const applyErrors = useCallback(
    (validation: Record<string, string[]>) => {
      let shown = 0;
      for (const [key, messages] of Object.entries(validation)) {
        const field = key.replace(/^billing_address\./, '') as AddressField;
        const message = messages[0];
        if (!message || !(ADDRESS_FIELDS as readonly string[]).includes(field)) continue;
        form.setError(field as FieldPath<BillingAddress>, { type: 'server', message });
        shown += 1;
      }
      if (shown > 0) setOpen(true);
      return shown > 0;
    },
    [form],
  );

  return { form, open, setOpen, prefill, value, validate, applyErrors };
}

export interface BillingAddressFieldsProps {
  address: BillingAddressFormApi;
  /** Show the fields without the disclosure button (a page about the address itself). */
  alwaysOpen?: boolean;
  readOnly?: boolean;
}

/** The billing address section: a disclosure button, then the fields. */
export function BillingAddressFields({
  address,
  alwaysOpen = false,
  readOnly = false,
}: BillingAddressFieldsProps) {
  const { t, i18n } = useTranslation();
  const regionId = useId();
  const { register, watch, setValue, formState } = address.form;
  const { errors } = formState;
  const open = alwaysOpen || address.open;
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const summary = [watch('name'), watch('line1'), watch('city')]
    .filter((part) => part?.trim())
    .join(', ');

  const text = (field: Exclude<AddressField, 'country'>, autoComplete: string) => (
    <FieldSlot>
      <TextInput
        label={t(`checkout.address.${field}`)}
        autoComplete={autoComplete}
        maxLength={MAX_LENGTH[field]}
        readOnly={readOnly}
        {...register(field, {
          maxLength: { value: MAX_LENGTH[field], message: 'input_errors.field_is_too_long' },
        })}
        error={errors[field]?.message}
      />
    </FieldSlot>
  );

  return (
    <div data-testid="billing-address">
      {!alwaysOpen && (
        <button
          type="button"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => address.setOpen(!open)}
          className="flex w-full items-center justify-between gap-3 rounded-lg py-2 text-left text-sm font-medium text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <span className="min-w-0">
            <span className="block">{t('checkout.address.title')}</span>
            {!open && (
              <span className="block truncate text-xs font-normal text-slate-500">
                {summary || t('checkout.address.optional')}
              </span>
            )}
          </span>
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className={`size-5 shrink-0 text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`}
          >
            <path d="M5 7l5 6 5-6" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
        </button>
      )}
      <div id={regionId} hidden={!open} className="pt-3">
        {open && (
          <>
            <div className="grid gap-x-4 sm:grid-cols-2">
              {text('name', 'billing name')}
              {text('company', 'billing organization')}
            </div>
            {text('line1', 'billing address-line1')}
            {text('line2', 'billing address-line2')}
            <div className="grid gap-x-4 sm:grid-cols-2">
              {text('city', 'billing address-level2')}
              {text('postal_code', 'billing postal-code')}
            </div>
            <div className="grid gap-x-4 sm:grid-cols-2">
              {text('region', 'billing address-level1')}
              <FieldSlot>
                <Select
                  label={t('checkout.address.country')}
                  options={countries}
                  value={watch('country') || null}
                  placeholder={t('checkout.address.country_placeholder')}
                  disabled={readOnly}
                  onSelect={(code) =>
                    setValue('country', code, { shouldDirty: true, shouldValidate: true })
                  }
                  error={errors.country?.message}
                />
              </FieldSlot>
            </div>
            {text('vat_id', 'off')}
          </>
        )}
      </div>
    </div>
  );
}
