export interface ProgressBarProps {
  /** 0 to 1. */
  value: number;
  /** Translated; names the bar for screen readers. */
  label: string;
  className?: string;
}

/** A determinate progress bar (upload progress, §7 "form data with upload progress"). */
export function ProgressBar({ value, label, className = '' }: ProgressBarProps) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={`h-2 w-full overflow-hidden rounded-full bg-slate-100 ${className}`}
    >
      <div
        className="h-full rounded-full bg-brand-500 transition-[width] duration-150"
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
