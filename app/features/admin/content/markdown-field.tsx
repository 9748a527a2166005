import {
  type KeyboardEvent,
  type RefObject,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '#shared/locales.ts';
import { FieldError } from '../../../ui/form-field.tsx';
import { useMarkdownPreview } from './use-markdown-preview.ts';

const TAB =
  'rounded-t-lg px-3 py-1.5 text-sm font-medium aria-selected:bg-white aria-selected:text-slate-900 text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-500';

/**
 * From this width of the field on, the preview stands beside the text: two columns of about
 * 310 px or more (the editor's text column is at most about 710 px wide).
 */
export const SIDE_BY_SIDE_MIN_PX = 640;

const MODES = ['write', 'preview'] as const;
type Mode = (typeof MODES)[number];

/** Whether the element is wide enough for two columns, known before the first paint. */
function useWideEnough(box: RefObject<HTMLElement | null>): boolean {
  const [wide, setWide] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWide(element.clientWidth >= SIDE_BY_SIDE_MIN_PX);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return wide;
}

/**
 * A Markdown body: written in a plain text area (every screen reader and keyboard knows
 * it), previewed with the renderer the server stores pages with, so the preview is the page.
 * Where the field is wide, the preview stands beside the text and follows the typing; where
 * it is narrow, Write and Preview are tabs. The preview is a labelled region that is not
 * live, so a screen reader is not interrupted at every keystroke; the renderer loads with
 * the first preview and runs off the page's thread.
 */
export function MarkdownField(props: {
  label: string;
  hint: string;
  value: string;
  lang: Lang;
  error?: string | undefined;
  rows?: number;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const tabs = useRef<Partial<Record<Mode, HTMLButtonElement | null>>>({});
  const wide = useWideEnough(box);
  const [mode, setMode] = useState<Mode>('write');
  const { value, lang } = props;
  const previewing = wide || mode === 'preview';
  const html = useMarkdownPreview(value, lang, previewing);
  const tabId = (tab: Mode) => `${id}-${tab}-tab`;
  const panelId = (tab: Mode) => `${id}-${tab}-panel`;

  // The tabs' keys (WAI-ARIA tabs pattern): arrows, Home and End move and choose.
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = MODES.indexOf(mode);
    const target =
      event.key === 'ArrowRight'
        ? MODES[(index + 1) % MODES.length]
        : event.key === 'ArrowLeft'
          ? MODES[(index + MODES.length - 1) % MODES.length]
          : event.key === 'Home'
            ? MODES[0]
            : event.key === 'End'
              ? MODES[MODES.length - 1]
              : undefined;
    if (!target) return;
    event.preventDefault();
    setMode(target);
    tabs.current[target]?.focus();
  };

  const preview = (
    <div
      id={panelId('preview')}
      {...(wide
        ? { role: 'region', 'aria-labelledby': `${id}-preview-label` }
        : { role: 'tabpanel', 'aria-labelledby': tabId('preview') })}
      // Scrolled by keyboard too, so it takes the focus.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
      tabIndex={0}
      hidden={!previewing}
      aria-busy={html === null || undefined}
      // Blocks out of view are not laid out: a 200 KB body's preview changes in a third of the time.
      className={`content-prose rounded-lg border border-[#dfe1e6] bg-white p-4 focus-visible:outline-2 focus-visible:outline-brand-500 [&>*]:[contain-intrinsic-size:auto_3rem] [&>*]:[content-visibility:auto] ${wide ? 'absolute inset-0 overflow-y-auto' : 'min-h-40'}`}
      // Sanitized by the renderer (rehype-sanitize), as the stored page is.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized HTML of our own renderer
      dangerouslySetInnerHTML={{
        __html: html === null ? '' : html || `<p>${t('staff_content.editor.preview_empty')}</p>`,
      }}
    />
  );

  return (
    <div ref={box} className="flex flex-col gap-1">
      <div
        className={
          wide ? 'grid grid-cols-2 items-end gap-3' : 'flex items-end justify-between gap-2'
        }
      >
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {props.label}
        </label>
        {wide ? (
          <p id={`${id}-preview-label`} className="text-sm font-medium text-slate-800">
            {t('staff_content.editor.preview')}
          </p>
        ) : (
          <div
            role="tablist"
            aria-label={t('staff_content.editor.mode', { field: props.label })}
            className="flex gap-1 rounded-t-lg bg-slate-100 p-1"
          >
            {MODES.map((tab) => (
              <button
                key={tab}
                ref={(element) => {
                  tabs.current[tab] = element;
                }}
                id={tabId(tab)}
                type="button"
                role="tab"
                aria-selected={mode === tab}
                aria-controls={panelId(tab)}
                tabIndex={mode === tab ? 0 : -1}
                className={TAB}
                onClick={() => setMode(tab)}
                onKeyDown={onTabKey}
              >
                {t(`staff_content.editor.${tab}`)}
              </button>
            ))}
          </div>
        )}
      </div>
      <div className={wide ? 'grid grid-cols-2 gap-3' : undefined}>
        {/* One text area in both layouts, hidden rather than removed behind the Preview tab,
            so neither a resize nor a look at the preview loses the caret or the undo history. */}
        <div
          id={panelId('write')}
          {...(wide ? {} : { role: 'tabpanel', 'aria-labelledby': tabId('write') })}
          hidden={!wide && mode !== 'write'}
        >
          <textarea
            id={id}
            value={value}
            rows={props.rows ?? 18}
            onChange={(event) => props.onChange(event.target.value)}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={`${id}-hint`}
            className={`block w-full rounded-lg border bg-white p-3 font-mono text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 ${props.error ? 'border-red-500' : 'border-[#dfe1e6]'}`}
          />
        </div>
        {/* Beside the text, the preview takes the text area's height and scrolls. */}
        {wide ? <div className="relative min-h-40">{preview}</div> : preview}
      </div>
      {props.error ? (
        <FieldError id={`${id}-hint`} message={props.error} />
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {props.hint}
        </p>
      )}
    </div>
  );
}
