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

/**
 * The same for a schema checked in the browser before sending (a form whose inputs are text
 * and whose request is not): each field's first issue goes under it, the first focused.
 */
export function applySchemaIssues<T extends FieldValues>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  setError: UseFormSetError<T>,
  fields: readonly FieldPath<T>[],
): void {
  const known = new Set<string>(fields);
  const marked = new Set<string>();
  for (const issue of issues) {
    const field = String(issue.path[0]);
    if (!known.has(field) || marked.has(field)) continue;
    setError(
      field as FieldPath<T>,
      { type: 'schema', message: issue.message },
      { shouldFocus: marked.size === 0 },
    );
    marked.add(field);
  }
}
