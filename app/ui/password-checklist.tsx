import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PASSWORD_ERROR_LENGTH,
  PASSWORD_ERROR_LETTERS,
  PASSWORD_ERROR_NUMBERS,
  PASSWORD_ERROR_SYMBOLS,
  PASSWORD_MIN_EXCLUSIVE,
  passwordProblems,
} from '#shared/validation/password.ts';

// §5 password rules in the spec's order, each with the line the checklist shows for it.
const RULES = [
  { problem: PASSWORD_ERROR_LENGTH, label: 'auth.password_rules.length' },
  { problem: PASSWORD_ERROR_LETTERS, label: 'auth.password_rules.letter' },
  { problem: PASSWORD_ERROR_NUMBERS, label: 'auth.password_rules.number' },
  { problem: PASSWORD_ERROR_SYMBOLS, label: 'auth.password_rules.symbol' },
] as const;

export interface PasswordChecklistProps {
  value: string;
  /** After a submit attempt, rules still broken are shown as errors rather than as to-dos. */
  showUnmet?: boolean;
}

/**
 * The §5 rules under a new-password field, ticked off as the user types. The rules come
 * from the same function the schema (and so the server) uses, so the list cannot disagree
 * with the verdict. Always rendered, so typing never moves the fields below.
 */
export function PasswordChecklist({ value, showUnmet = false }: PasswordChecklistProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const problems = passwordProblems(value);
  return (
    <div className="mt-1 mb-4" data-testid="password-checklist">
      <p id={titleId} className="text-xs font-medium text-slate-700">
        {t('auth.password_rules.title')}
      </p>
      <ul
        aria-labelledby={titleId}
        className="mt-1 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2"
      >
        {RULES.map(({ problem, label }) => {
          const met = !problems.includes(problem);
          const tone = met ? 'text-emerald-700' : showUnmet ? 'text-red-600' : 'text-slate-500';
          return (
            <li
              key={problem}
              className={`flex items-center gap-1.5 text-xs ${tone}`}
              data-met={met}
            >
              <RuleIcon met={met} />
              <span>{t(label, { min: PASSWORD_MIN_EXCLUSIVE })}</span>
              <span className="sr-only">
                {t(met ? 'auth.password_rules.met' : 'auth.password_rules.unmet')}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function RuleIcon({ met }: { met: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-3.5 shrink-0"
    >
      {met ? <path d="M3 8.5l3 3 7-7" /> : <circle cx="8" cy="8" r="5.25" />}
    </svg>
  );
}
