import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HelpSearchResult } from '#shared/contracts/help-search.ts';
import { searchHelp } from '../site-api.ts';

/** A pause in typing before asking: the box answers as the visitor types, not per key. */
const TYPING_PAUSE_MS = 250;

type Found =
  | { state: 'idle' }
  | { state: 'loading'; q: string }
  | { state: 'done'; q: string; items: HelpSearchResult[] }
  | { state: 'failed'; q: string };

/**
 * The help center's search (issue 23 must-show 4): the language's articles, ranked and with
 * the matched words marked, as the visitor types.
 */
export function HelpSearch({ lang }: { lang: string }) {
  const { t } = useTranslation();
  // A fixed id: the box is hydrated on its own (island.tsx), where useId would differ.
  const inputId = 'help-search-input';
  const [q, setQ] = useState('');
  const [found, setFound] = useState<Found>({ state: 'idle' });

  useEffect(() => {
    const query = q.trim();
    if (query.length < 2) {
      setFound({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setFound({ state: 'loading', q: query });
      searchHelp(lang, query, controller.signal).then(
        (items) => setFound({ state: 'done', q: query, items }),
        () => {
          if (!controller.signal.aborted) setFound({ state: 'failed', q: query });
        },
      );
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, lang]);

  return (
    <search className="mb-10 max-w-2xl">
      <form onSubmit={(event) => event.preventDefault()}>
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-800">
          {t('public_site.help.search_label')}
        </label>
        <input
          id={inputId}
          type="search"
          value={q}
          maxLength={200}
          autoComplete="off"
          placeholder={t('public_site.help.search_placeholder')}
          onChange={(event) => setQ(event.target.value)}
          className="h-12 w-full rounded-xl border border-slate-300 bg-white px-4 text-base text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30"
        />
      </form>
      <div aria-live="polite" className="mt-3">
        {found.state === 'loading' && (
          <p className="text-sm text-slate-600">{t('public_site.help.searching')}</p>
        )}
        {found.state === 'failed' && (
          <p className="text-sm text-red-700">{t('public_site.help.search_failed')}</p>
        )}
        {found.state === 'done' && found.items.length === 0 && (
          <p className="text-sm text-slate-600">
            {t('public_site.help.search_empty', { query: found.q })}
          </p>
        )}
        {found.state === 'done' && found.items.length > 0 && (
          <section aria-label={t('public_site.help.search_results')}>
            <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
              {found.items.map((item) => (
                <li key={item.translation_id} className="px-5 py-4">
                  <a
                    href={item.path}
                    className="font-medium text-brand-700 hover:text-brand-800 hover:underline"
                  >
                    {item.title}
                  </a>
                  {item.category && (
                    <span className="ml-2 text-xs text-slate-600">{item.category.name}</span>
                  )}
                  {item.snippet.length > 0 && (
                    <p className="mt-1 text-sm text-slate-600">
                      {item.snippet.map((part, index) =>
                        part.hit ? (
                          // biome-ignore lint/suspicious/noArrayIndexKey: parts in their fixed order
                          <mark key={index} className="rounded bg-amber-100 px-0.5 text-slate-900">
                            {part.text}
                          </mark>
                        ) : (
                          // biome-ignore lint/suspicious/noArrayIndexKey: parts in their fixed order
                          <span key={index}>{part.text}</span>
                        ),
                      )}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </search>
  );
}
