import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError, isCancelled, messageKeyOf } from '../api/api-error.ts';

/**
 * §5: puts each field's first server message on the form field of that name (focusing the
 * first), and returns the i18n key to show above the form, if any: the first errors_info
 * message, else a validation message no field here can show, else (nothing mapped) the
 * code's own message. A cancelled request returns nothing; an unexpected error is logged.
 */
export function applyApiErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly FieldPath<T>[],
): string | undefined {
  if (isCancelled(error)) return undefined;
  if (!isApiError(error)) {
    console.error(error);
    return messageKeyOf('internal');
  }
  const known = new Set<string>(fields);
  let mapped = 0;
  let unmapped: string | undefined;
  for (const [field, messages] of Object.entries(error.validation)) {
    const first = messages[0];
    if (first === undefined) continue;
    if (known.has(field)) {
      setError(
        field as FieldPath<T>,
        { type: 'server', message: first },
        { shouldFocus: mapped === 0 },
      );
      mapped += 1;
    } else {
      unmapped ??= first;
    }
  }
  const info = error.info[0] ?? unmapped;
  if (info !== undefined) return info;
  return mapped === 0 ? messageKeyOf(error.code) : undefined;
}
