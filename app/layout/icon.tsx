// Menu icons as inline SVG paths (24×24, stroked): a few bytes each, no icon font to load.
const PATHS = {
  dashboard: 'M4 13h6V4H4zm0 7h6v-4H4zm10 0h6v-9h-6zm0-16v4h6V4z',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8a7 7 0 0 1 14 0',
  users:
    'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm-6 9a6 6 0 0 1 12 0m2-9a3 3 0 1 0 0-6m2 15a5 5 0 0 0-3-4.6',
  shield: 'M12 3l7 3v6c0 4.5-3 7.7-7 9-4-1.3-7-4.5-7-9V6z',
  bell: 'M6 16V11a6 6 0 1 1 12 0v5l2 2H4zm4 3a2 2 0 0 0 4 0',
  radar: 'M12 12l6-6m-6 15a9 9 0 1 1 0-18 9 9 0 0 1 0 18zm0-5a4 4 0 1 1 0-8',
  gift: 'M4 10h16v4H4zm1 4h14v7H5zm7-4v11M12 10S10 4 7.5 5.5 9 10 12 10zm0 0s2-6 4.5-4.5S15 10 12 10',
  download: 'M12 4v11m-5-5l5 5 5-5M5 20h14',
  help: 'M12 21a9 9 0 1 1 0-18 9 9 0 0 1 0 18zm-2.5-11.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14m0 3h.01',
  chat: 'M4 5h16v11H8l-4 4z',
  card: 'M3 6h18v12H3zm0 4h18',
  chart: 'M4 20V10m6 10V4m6 16v-7m4 7H3',
  globe:
    'M12 21a9 9 0 1 1 0-18 9 9 0 0 1 0 18zm-9-9h18M12 3c3 3.5 3 14.5 0 18M12 3c-3 3.5-3 14.5 0 18',
  server: 'M4 4h16v6H4zm0 10h16v6H4zm3-7h.01M7 17h.01',
  puzzle:
    'M10 4a2 2 0 1 1 4 0v2h4v4h-2a2 2 0 1 0 0 4h2v4h-4v-2a2 2 0 1 0-4 0v2H6v-4h2a2 2 0 1 0 0-4H6V6h4z',
  list: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
  pen: 'M4 20l4-1 11-11-3-3L5 16zm10-13l3 3',
  folder: 'M3 6h6l2 2h10v11H3z',
  page: 'M6 3h9l4 4v14H6zm9 0v4h4',
  key: 'M14 10a4 4 0 1 0-3.5 4L9 15.5V18H7v2H4v-3l6.5-6.5A4 4 0 0 0 14 10z',
  search: 'M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14zm5-2l5 5',
  menu: 'M4 6h16M4 12h16M4 18h16',
  close: 'M6 6l12 12M18 6L6 18',
  chevron: 'M6 9l6 6 6-6',
  logout: 'M15 4h4v16h-4m-5-4l-4-4 4-4m-4 4h10',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className = 'size-5' }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
