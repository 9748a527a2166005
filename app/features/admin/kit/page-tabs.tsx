import { NavLink } from 'react-router';

export interface PageTab {
  /** The route's path in the page's language (useRoutePath). */
  to: string;
  label: string;
}

/** Sibling screens of one area as tabs: links, the current one marked for every reader. */
export function PageTabs({ label, tabs }: { label: string; tabs: readonly PageTab[] }) {
  return (
    <nav aria-label={label} className="border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-x-4">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end
              className={({ isActive }) =>
                `inline-flex border-b-2 px-1 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500 ${
                  isActive
                    ? 'border-brand-500 text-brand-700'
                    : 'border-transparent text-slate-600 hover:text-slate-900'
                }`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
