import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { AdminPage } from '../kit/admin-page.tsx';
import { CONTENT_AREAS, type ContentAreaName } from './content-areas.ts';
import { ContentEditor, contentItemKey } from './content-editor.tsx';

function Back({ areaName }: { areaName: ContentAreaName }) {
  const { t } = useTranslation();
  return (
    <RouteLink
      name={CONTENT_AREAS[areaName].overview}
      className="text-sm text-brand-700 hover:underline"
    >
      ← {t('staff_content.editor.back')}
    </RouteLink>
  );
}

/** §2 …/create: a new item, written in one language first. */
function CreatePage({ areaName }: { areaName: ContentAreaName }) {
  const { t } = useTranslation();
  return (
    <AdminPage
      title={t(`staff_content.areas.${areaName}.new_title`)}
      before={<Back areaName={areaName} />}
    >
      <ContentEditor area={CONTENT_AREAS[areaName]} />
    </AdminPage>
  );
}

/** §2 …/edit/{id}: an item in every language. */
function EditPage({ areaName }: { areaName: ContentAreaName }) {
  return (
    <QueryProvider>
      <Edit areaName={areaName} />
    </QueryProvider>
  );
}

function Edit({ areaName }: { areaName: ContentAreaName }) {
  const { t } = useTranslation();
  const area = CONTENT_AREAS[areaName];
  const id = Number(useParams().id);
  const item = useQuery({
    queryKey: contentItemKey(area, id),
    queryFn: ({ signal }) =>
      call(area.endpoints.view, { query: { id } }, { signal }).then((a) => a.item),
    enabled: Number.isInteger(id) && id > 0,
  });
  const title = t(`staff_content.areas.${areaName}.edit_title`);
  return (
    <AdminPage title={title} before={<Back areaName={areaName} />}>
      {item.isPending ? (
        <LoadingBlock />
      ) : item.isError ? (
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(item.error))}
          action={<Button onClick={() => item.refetch()}>{t('staff.kit.retry')}</Button>}
        />
      ) : (
        // A new key per item: another item's drafts never carry over.
        <ContentEditor key={item.data.id} area={area} item={item.data} />
      )}
    </AdminPage>
  );
}

export const ContentCreatePages = {
  posts: () => <CreatePage areaName="posts" />,
  articles: () => <CreatePage areaName="articles" />,
  pages: () => <CreatePage areaName="pages" />,
  faq: () => <CreatePage areaName="faq" />,
};

export const ContentEditPages = {
  posts: () => <EditPage areaName="posts" />,
  articles: () => <EditPage areaName="articles" />,
  pages: () => <EditPage areaName="pages" />,
  static_pages: () => <EditPage areaName="static_pages" />,
  faq: () => <EditPage areaName="faq" />,
};
