import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard.ts';
import { Button } from '../../../ui/button.tsx';

/**
 * A read-only value to copy (a token, a command): the whole text selected on focus, a copy
 * button that says when it worked, and, where the page has no clipboard, the text selected
 * for copying by hand.
 */
export function CopyField(props: {
  /** Translated. */
  label: string;
  value: string;
  /** Translated name of the copy button ("Copy the token"). */
  copyLabel: string;
  /** Lines of commands rather than one value. */
  rows?: number;
  /** One long line shown whole, wrapped anywhere (a command with a token in it). */
  wrapAnywhere?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2_500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    if (await copyText(props.value)) setState('copied');
    else {
      field.current?.focus();
      field.current?.select();
      setState('manual');
    }
  };
  const common = {
    id,
    ref: field,
    readOnly: true,
    value: props.value,
    spellCheck: false,
    'data-testid': props.testId,
    onFocus: () => field.current?.select(),
    className:
      'w-full min-w-0 rounded-lg border border-[#dfe1e6] bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30',
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {props.label}
      </label>
      <div className="flex items-start gap-2">
        {props.rows ? (
          <textarea
            {...common}
            rows={props.rows}
            wrap={props.wrapAnywhere ? 'soft' : 'off'}
            className={`${common.className} resize-none ${props.wrapAnywhere ? 'break-all' : ''}`}
          />
        ) : (
          <input {...common} type="text" className={`${common.className} h-10`} />
        )}
        <Button variant="secondary" className="shrink-0" onClick={() => void copy()}>
          {props.copyLabel}
        </Button>
      </div>
      <p aria-live="polite" className="min-h-4 text-xs text-slate-600">
        {state === 'copied'
          ? t('staff_servers.copy.copied')
          : state === 'manual'
            ? t('staff_servers.copy.manual')
            : ''}
      </p>
    </div>
  );
}
