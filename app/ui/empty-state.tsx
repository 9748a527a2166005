import type { ReactNode } from 'react';

export interface EmptyStateProps {
  /** Decorative; the title says what is empty. */
  icon?: ReactNode;
  title: string;
  text?: string;
  action?: ReactNode;
  className?: string;
}

export function EmptyState({ icon, title, text, action, className = '' }: EmptyStateProps) {
  return (
    <div className={`flex flex-col items-center px-6 py-12 text-center ${className}`}>
      {icon !== undefined && (
        <div aria-hidden="true" className="mb-4 text-slate-400">
          {icon}
        </div>
      )}
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      {text !== undefined && <p className="mt-1 max-w-md text-sm text-slate-600">{text}</p>}
      {action !== undefined && <div className="mt-6">{action}</div>}
    </div>
  );
}
