import type { ComponentProps } from 'react';
import { RouteLink } from './route-link.tsx';

const STYLES = {
  primary: 'bg-brand-500 text-white hover:bg-brand-600 active:bg-brand-700',
  secondary: 'border border-[#dfe1e6] bg-white text-slate-800 hover:bg-slate-50',
} as const;

/** A link that looks like a button: it goes to another screen rather than doing something. */
export function LinkButton({
  variant = 'secondary',
  className = '',
  ...props
}: ComponentProps<typeof RouteLink> & { variant?: keyof typeof STYLES }) {
  return (
    <RouteLink
      {...props}
      className={`inline-flex min-h-10 items-center justify-center gap-2 rounded-lg px-4 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 ${STYLES[variant]} ${className}`}
    />
  );
}
