import { type ClipboardEvent, type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError } from './form-field.tsx';

export interface CodeInputProps {
  /** Translated; names the group of boxes. */
  label: string;
  /** The digits typed so far, at most `length`. */
  value: string;
  onChange: (value: string) => void;
  length?: number;
  /** An i18n key. When it appears, focus moves to the last digit (§8). */
  error?: string | undefined;
  disabled?: boolean;
  autoFocus?: boolean;
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * §4/§5 the six-digit code: one box per digit, typing moves on, Backspace moves back, a
 * pasted or autofilled code fills every box. Screen readers hear one labelled group with the
 * error attached to each box.
 */
export function CodeInput({
  label,
  value,
  onChange,
  length = 6,
  error,
  disabled = false,
  autoFocus = false,
}: CodeInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const focusBox = (index: number) =>
    boxes.current[Math.max(0, Math.min(length - 1, index))]?.focus();

  useEffect(() => {
    if (autoFocus) boxes.current[0]?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (error) boxes.current[length - 1]?.focus();
  }, [error, length]);

  const write = (from: number, typed: string) => {
    const digits = digitsOf(typed);
    if (digits === '') return;
    const chars = value.padEnd(length, ' ').split('');
    for (let i = 0; i < digits.length && from + i < length; i++) chars[from + i] = digits[i] ?? ' ';
    const next = chars.join('').replace(/\s+$/, '');
    onChange(next.replace(/ /g, ''));
    focusBox(from + digits.length);
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      const at = value[index] ? index : index - 1;
      if (at < 0) return;
      onChange(value.slice(0, at) + value.slice(at + 1));
      focusBox(at);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    write(index, event.clipboardData.getData('text'));
  };

  const messageId = `${id}-message`;
  return (
    <div className="flex flex-col gap-2">
      <span id={`${id}-label`} className="text-sm font-medium text-slate-800">
        {label}
      </span>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset would bring its own border and legend layout */}
      <div role="group" aria-labelledby={`${id}-label`} className="flex gap-2">
        {Array.from({ length }, (_, index) => (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions, never reordered
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
            }}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            maxLength={length}
            disabled={disabled}
            value={value[index] ?? ''}
            aria-label={t('ui.code.digit', { index: index + 1, count: length })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? messageId : undefined}
            data-testid={`code-digit-${index + 1}`}
            onChange={(event) => write(index, event.target.value.slice(-length))}
            onKeyDown={onKeyDown(index)}
            onPaste={onPaste(index)}
            onFocus={(event) => event.target.select()}
            className={`size-11 rounded-lg border bg-white text-center text-lg font-semibold text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 disabled:bg-slate-50 sm:size-12 ${error ? 'border-red-500' : 'border-[#dfe1e6]'}`}
          />
        ))}
      </div>
      <FieldError id={messageId} message={error} />
    </div>
  );
}
