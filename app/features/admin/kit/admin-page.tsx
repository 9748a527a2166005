import type { ReactNode } from 'react';
import { QueryProvider } from '../../../api/query-provider.tsx';

/** The frame of an admin screen: its one heading, its main actions, and the query cache. */
export function AdminPage({
  title,
  actions,
  before,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  /** Above the heading: a link back to the list. */
  before?: ReactNode;
  children: ReactNode;
}) {
  return (
    <QueryProvider>
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8 sm:px-6">
        {before}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {actions !== undefined && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
        {children}
      </div>
    </QueryProvider>
  );
}
