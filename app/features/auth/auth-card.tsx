import { type ReactNode, useEffect, useRef } from 'react';

export interface AuthCardProps {
  /** The page's one h1, already translated. */
  title: string;
  lead?: ReactNode;
  /** Below the card: the way to the neighbouring screen (sign in ↔ sign up). */
  footer?: ReactNode;
  /**
   * Moves focus to the title when the card appears, for a state that replaces the one the
   * user was in (a sent form): screen readers then read the new state from its start.
   */
  focusTitle?: boolean;
  children: ReactNode;
}

/** The centred card every sign-in, sign-up, password and verification screen sits in. */
export function AuthCard({ title, lead, footer, focusTitle = false, children }: AuthCardProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusTitle) heading.current?.focus();
  }, [focusTitle]);
  return (
    <section className="flex flex-col items-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-semibold tracking-tight text-slate-900 focus:outline-none"
        >
          {title}
        </h1>
        {lead !== undefined && <div className="mt-2 text-sm text-slate-600">{lead}</div>}
        <div className="mt-6">{children}</div>
      </div>
      {footer !== undefined && (
        <div className="mt-6 text-center text-sm text-slate-600">{footer}</div>
      )}
    </section>
  );
}

export const linkClass =
  'font-medium text-brand-600 underline-offset-2 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500';
