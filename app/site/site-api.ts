import type { HelpSearchResult } from '#shared/contracts/help-search.ts';

// The two calls a public page makes itself (issue 23): the help center's search and "was
// this helpful?". Plain fetch, typed by the declarations (shared/contracts/help-search.ts)
// without bringing their schemas into the public pages' script.

const HEADERS = { 'x-requested-with': 'fetch', accept: 'application/json' } as const;

export async function searchHelp(
  lang: string,
  q: string,
  signal: AbortSignal,
): Promise<HelpSearchResult[]> {
  const query = new URLSearchParams({ lang, q });
  const response = await fetch(`/api/public/v1/help-center/search?${query}`, {
    headers: HEADERS,
    signal,
  });
  if (!response.ok) throw new Error(`search answered ${response.status}`);
  return ((await response.json()) as { items: HelpSearchResult[] }).items;
}

export async function voteHelpful(translationId: number, helpful: boolean): Promise<void> {
  const response = await fetch('/api/public/v1/help-center/articles/vote', {
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ translation_id: translationId, helpful }),
  });
  if (!response.ok) throw new Error(`vote answered ${response.status}`);
}
