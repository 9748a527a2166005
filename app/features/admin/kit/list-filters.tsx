import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback.ts';

/**
 * A choice of a filter: `label` is an i18n key; `text` is shown as it is (a name staff gave,
 * which the translator would read as a key: "Setup: first steps" holds its separator).
 */
export type FilterOption = { value: string; label: string } | { value: string; text: string };

/**
 * A filter of the list: a query parameter with its choices, a day, or free text; its label
 * is an i18n key.
 */
export interface ListFilter {
  name: string;
  label: string;
  kind?: 'select' | 'date' | 'text';
  options?: readonly FilterOption[];
}

/**
 * Text typed into a list's field, sent to `onSettled` 300 ms after the last keystroke, and
 * following the URL when it changes otherwise (Back, a menu link to the bare list).
 */
function useTypedValue(value: string, onSettled: (text: string) => void) {
  const [text, setText] = useState(value);
  const settle = useDebouncedCallback((typed: string) => onSettled(typed.trim()), 300);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (text.trim() !== value) setText(value);
  }
  const onChange = (typed: string) => {
    setText(typed);
    settle(typed);
  };
  return [text, onChange] as const;
}

export function SearchField(props: {
  label: string;
  value: string;
  onSearch: (value: string) => void;
}) {
  const id = useId();
  const [text, onChange] = useTypedValue(props.value, props.onSearch);
  return (
    <div className="flex min-w-64 flex-1 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {props.label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        onChange={(event) => onChange(event.target.value)}
        className={FIELD}
      />
    </div>
  );
}

export function FilterField(props: {
  filter: ListFilter;
  value: string;
  onChange: (value: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { kind = 'select' } = props.filter;
  const [text, onType] = useTypedValue(props.value, (typed) => props.onChange(typed || undefined));
  if (kind !== 'select') {
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {t(props.filter.label)}
        </label>
        <input
          id={id}
          type={kind}
          value={kind === 'date' ? props.value : text}
          onChange={(event) => {
            if (kind === 'date') props.onChange(event.target.value || undefined);
            else onType(event.target.value);
          }}
          className={FIELD}
        />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {t(props.filter.label)}
      </label>
      <select
        id={id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value || undefined)}
        className={FIELD}
      >
        <option value="">{t('staff.kit.any')}</option>
        {props.filter.options?.map((option) => (
          <option key={option.value} value={option.value}>
            {'text' in option ? option.text : t(option.label)}
          </option>
        ))}
      </select>
    </div>
  );
}

const FIELD =
  'h-10 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30';
