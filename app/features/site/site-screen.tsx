import { useQuery } from '@tanstack/react-query';
import { type MouseEvent, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { siteEndpoints } from '#shared/contracts/site.ts';
import { failureMessage } from '../../api/api-error.ts';
import { call } from '../../api/client.ts';
import { QueryProvider } from '../../api/query-provider.tsx';
import { SiteContext } from '../../site/site-context.ts';
import { pageTitles } from '../../site/site-head.ts';
import { SiteBody } from '../../site/site-page.tsx';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadingBlock } from '../../ui/spinner.tsx';

/** A same-origin link the app's router can follow (not a file, not a new tab). */
function internalPath(event: MouseEvent): string | undefined {
  if (event.defaultPrevented || event.button !== 0) return undefined;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return undefined;
  const anchor = (event.target as Element).closest('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return undefined;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) return undefined;
  if (url.pathname.endsWith('.xml')) return undefined;
  return url.pathname + url.search + url.hash;
}

/**
 * A public page inside the app (issue 23): the server renders these as HTML for a first
 * visit; once the app runs, moving to one shows the same components from the page's data,
 * without a reload, in the app's own frame.
 */
export function SiteScreen() {
  return (
    <QueryProvider>
      <SitePageScreen />
    </QueryProvider>
  );
}

function SitePageScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const path = location.pathname.replace(/\/+$/, '') + location.search;
  const answer = useQuery({
    queryKey: ['site', path],
    queryFn: ({ signal }) => call(siteEndpoints.page, { query: { path } }, { signal }),
    staleTime: 30_000,
  });
  const page = answer.data?.kind === 'page' ? answer.data.page : undefined;
  useEffect(() => {
    if (page) document.title = pageTitles(page, t).title;
  }, [page, t]);

  if (answer.isError) {
    return (
      <EmptyState
        title={t('layout.error_title')}
        text={t(failureMessage(answer.error))}
        action={
          <Button variant="secondary" onClick={() => void answer.refetch()}>
            {t('layout.reload')}
          </Button>
        }
      />
    );
  }
  if (!answer.data) return <LoadingBlock />;
  if (answer.data.kind === 'moved') return <Navigate to={answer.data.to} replace />;
  if (!page) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: follows the links inside, which are the controls
    // biome-ignore lint/a11y/useKeyWithClickEvents: a link's Enter is a click
    <div
      onClick={(event) => {
        const to = internalPath(event);
        if (!to) return;
        event.preventDefault();
        void navigate(to);
      }}
    >
      <SiteContext value={page}>
        <SiteBody page={page} />
      </SiteContext>
    </div>
  );
}
