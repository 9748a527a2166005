import type { Lang } from '#shared/locales.ts';

// §1 flags for the five languages, drawn as SVG: emoji flags do not render on Windows or on
// systems without a colour emoji font.
const FLAGS: Record<Lang, React.ReactNode> = {
  en: (
    <>
      <rect width="60" height="40" fill="#012169" />
      <path d="M0 0l60 40M60 0L0 40" stroke="#fff" strokeWidth="8" />
      <path d="M0 0l60 40M60 0L0 40" stroke="#c8102e" strokeWidth="3" />
      <path d="M30 0v40M0 20h60" stroke="#fff" strokeWidth="12" />
      <path d="M30 0v40M0 20h60" stroke="#c8102e" strokeWidth="7" />
    </>
  ),
  es: (
    <>
      <rect width="60" height="40" fill="#aa151b" />
      <rect y="10" width="60" height="20" fill="#f1bf00" />
    </>
  ),
  fr: (
    <>
      <rect width="20" height="40" fill="#002654" />
      <rect x="20" width="20" height="40" fill="#fff" />
      <rect x="40" width="20" height="40" fill="#ce1126" />
    </>
  ),
  nl: (
    <>
      <rect width="60" height="14" fill="#ae1c28" />
      <rect y="13" width="60" height="14" fill="#fff" />
      <rect y="26" width="60" height="14" fill="#21468b" />
    </>
  ),
  ru: (
    <>
      <rect width="60" height="14" fill="#fff" />
      <rect y="13" width="60" height="14" fill="#0039a6" />
      <rect y="26" width="60" height="14" fill="#d52b1e" />
    </>
  ),
};

export function Flag({ lang }: { lang: Lang }) {
  return (
    <svg
      viewBox="0 0 60 40"
      className="h-3.5 w-5 shrink-0 rounded-[2px] ring-1 ring-slate-200"
      aria-hidden="true"
      focusable="false"
    >
      {FLAGS[lang]}
    </svg>
  );
}
