import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button.tsx';
import { FieldError } from '../../../ui/form-field.tsx';
import {
  checkRange,
  type Granularity,
  RANGE_PRESETS,
  type RangeErrors,
  type RangePreset,
  type RangeState,
} from './date-range.ts';
import type { RangePatch } from './use-stats-range.ts';

const FIELD =
  'h-10 rounded-lg border bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30';

/**
 * The statistics screens' period: a preset, or two days of one's own applied together (each
 * wrong one said under its field), and optionally by day or by month.
 */
export function RangePicker(props: {
  state: RangeState;
  onChange: (patch: RangePatch) => void;
  /** Offer the by-day / by-month switch (the earnings charts). */
  granularity?: boolean;
}) {
  const { t } = useTranslation();
  const { state, onChange } = props;
  const presetId = useId();
  return (
    <search
      aria-label={t('staff_stats.range.region')}
      className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={presetId} className="text-sm font-medium text-slate-800">
          {t('staff_stats.range.label')}
        </label>
        <select
          id={presetId}
          value={state.preset}
          onChange={(event) => {
            const preset = event.target.value as RangePreset;
            // A custom range starts from the days shown, so the charts stay while it is edited.
            onChange(preset === 'custom' && state.range ? { preset, ...state.range } : { preset });
          }}
          className={`${FIELD} border-[#dfe1e6]`}
        >
          {RANGE_PRESETS.map((preset) => (
            <option key={preset} value={preset}>
              {t(`staff_stats.range.presets.${preset}`)}
            </option>
          ))}
        </select>
      </div>
      {state.preset === 'custom' && (
        <CustomRange
          // A new range from the URL (Back, a shared link) starts the fields anew.
          key={`${state.from}/${state.to}`}
          from={state.from}
          to={state.to}
          errors={state.errors}
          onApply={(from, to) => onChange({ preset: 'custom', from, to })}
        />
      )}
      {props.granularity && state.range && (
        <GranularitySwitch
          value={state.granularity}
          onChange={(granularity) => onChange({ granularity })}
        />
      )}
    </search>
  );
}

function CustomRange(props: {
  from: string;
  to: string;
  errors: RangeErrors;
  onApply: (from: string, to: string) => void;
}) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(props.from);
  const [to, setTo] = useState(props.to);
  const [errors, setErrors] = useState<RangeErrors>(props.errors);
  const fromId = useId();
  const toId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkRange(from, to);
    setErrors(found);
    if (Object.keys(found).length === 0) props.onApply(from, to);
  };
  const field = (
    id: string,
    label: string,
    value: string,
    set: (value: string) => void,
    error: string | undefined,
  ) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="date"
        value={value}
        onChange={(event) => set(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-message` : undefined}
        className={`${FIELD} ${error ? 'border-red-500' : 'border-[#dfe1e6]'}`}
      />
      {error && <FieldError id={`${id}-message`} message={error} />}
    </div>
  );
  return (
    <form noValidate onSubmit={submit} className="flex flex-wrap items-start gap-3">
      {field(fromId, t('staff_stats.range.from'), from, setFrom, errors.from)}
      {field(toId, t('staff_stats.range.to'), to, setTo, errors.to)}
      <Button type="submit" className="mt-6">
        {t('staff_stats.range.apply')}
      </Button>
    </form>
  );
}

function GranularitySwitch(props: { value: Granularity; onChange: (value: Granularity) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-slate-800">
        {t('staff_stats.range.granularity')}
      </legend>
      <div className="flex h-10 overflow-hidden rounded-lg border border-[#dfe1e6]">
        {(['day', 'month'] as const).map((value) => (
          <label
            key={value}
            className={`flex cursor-pointer items-center px-3 text-sm has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${props.value === value ? 'bg-brand-600 text-white' : 'bg-white text-slate-700 hover:bg-slate-50'}`}
          >
            <input
              type="radio"
              name="granularity"
              value={value}
              checked={props.value === value}
              onChange={() => props.onChange(value)}
              className="sr-only"
            />
            {t(`staff_stats.range.by_${value}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
