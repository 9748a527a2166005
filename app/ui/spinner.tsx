import { useTranslation } from 'react-i18next';

const SIZES = { sm: 'size-4', md: 'size-6', lg: 'size-10' } as const;

export interface SpinnerProps {
  size?: keyof typeof SIZES;
  /** Inside something that already says it is busy (a button with aria-busy): no status text. */
  decorative?: boolean;
  className?: string;
}

export function Spinner({ size = 'md', decorative = false, className = '' }: SpinnerProps) {
  const { t } = useTranslation();
  const circle = (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      className={`${SIZES[size]} animate-spin ${className}`}
    >
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="3" className="opacity-25" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" />
    </svg>
  );
  if (decorative) return circle;
  return (
    <span role="status" className="inline-flex items-center text-brand-500">
      {circle}
      <span className="sr-only">{t('ui.loading')}</span>
    </span>
  );
}

/** A centred spinner for a region that is still fetching. */
export function LoadingBlock({ className = '' }: { className?: string }) {
  return (
    <div className={`flex justify-center py-12 ${className}`}>
      <Spinner size="lg" />
    </div>
  );
}
