import type { ReactNode } from 'react';

export interface PanelProps {
  /** Translated; the panel's h2, which names the region. */
  title: ReactNode;
  description?: ReactNode;
  /** Buttons beside the title on wide screens, below it on narrow ones. */
  actions?: ReactNode;
  children?: ReactNode;
  tone?: 'default' | 'danger';
  id?: string;
  className?: string;
}

/** A titled card of a settings page: one topic, one region for screen readers. */
export function Panel({
  title,
  description,
  actions,
  children,
  tone = 'default',
  id,
  className = '',
}: PanelProps) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={`rounded-2xl border bg-white p-5 shadow-sm sm:p-6 ${tone === 'danger' ? 'border-red-200' : 'border-slate-200'} ${className}`}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2
            id={headingId}
            className={`text-base font-semibold ${tone === 'danger' ? 'text-red-700' : 'text-slate-900'}`}
          >
            {title}
          </h2>
          {description !== undefined && (
            <div className="mt-1 text-sm text-slate-600">{description}</div>
          )}
        </div>
        {actions !== undefined && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
      {children !== undefined && <div className="mt-5">{children}</div>}
    </section>
  );
}
