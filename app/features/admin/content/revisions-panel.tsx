import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type ContentItem,
  type ContentRevisionDetail,
  type ContentTranslation,
  contentEndpoints,
} from '#shared/contracts/admin/content.ts';
import type { Lang } from '#shared/locales.ts';
import { messageKeyOf } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { FormError } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';

/** The fields a revision is compared on, as the revision and the current text name them. */
const COMPARED = ['name', 'url', 'summary', 'contents', 'seo_title', 'seo_description'] as const;

export const revisionsKey = (id: number, lang: Lang) => ['admin', 'content', 'revisions', id, lang];

/**
 * The open language's revisions, newest first: each can be read beside the current text and
 * restored (a new revision on top; the state and dates stay as they are).
 */
export function RevisionsPanel(props: {
  item: ContentItem;
  lang: Lang;
  current: ContentTranslation;
  onRestored: (item: ContentItem) => void;
}) {
  const { t } = useTranslation();
  const pageLang = useLang();
  const [open, setOpen] = useState<number | null>(null);
  const revisions = useQuery({
    queryKey: [...revisionsKey(props.item.id, props.lang), props.current.version],
    queryFn: async ({ signal }) =>
      (
        await call(
          contentEndpoints.revisions,
          { query: { id: props.item.id, lang: props.lang, per_page: 20 } },
          { signal },
        )
      ).items,
  });

  return (
    <Panel title={t('staff_content.revisions.title')}>
      {revisions.isPending ? (
        <Spinner />
      ) : revisions.isError ? (
        <FormError message={messageKeyOf('internal')} />
      ) : revisions.data.length === 0 ? (
        <p className="text-sm text-slate-600">{t('staff_content.revisions.none')}</p>
      ) : (
        <ol className="flex flex-col gap-2" aria-label={t('staff_content.revisions.title')}>
          {revisions.data.map((revision, index) => (
            <li key={revision.revision_id} className="flex items-start justify-between gap-2">
              <div className="min-w-0 text-sm">
                <p className="font-medium text-slate-800">
                  {formatDateTime(revision.created_at, pageLang)}
                  {index === 0 && (
                    <span className="ml-2 text-xs text-slate-500">
                      {t('staff_content.revisions.latest')}
                    </span>
                  )}
                </p>
                <p className="truncate text-xs text-slate-500">
                  {revision.author?.name ?? t('staff_content.revisions.someone')} ·{' '}
                  {revision.changed.map((field) => t(`staff_content.changed.${field}`)).join(', ')}
                </p>
              </div>
              <Button
                type="button"
                variant="ghost"
                aria-label={t('staff_content.revisions.view_label', {
                  date: formatDateTime(revision.created_at, pageLang),
                })}
                onClick={() => setOpen(revision.revision_id)}
              >
                {t('staff_content.revisions.view')}
              </Button>
            </li>
          ))}
        </ol>
      )}
      {open !== null && (
        <RevisionDialog
          revisionId={open}
          current={props.current}
          onClose={() => setOpen(null)}
          onRestored={(item) => {
            setOpen(null);
            props.onRestored(item);
          }}
        />
      )}
    </Panel>
  );
}

function RevisionDialog(props: {
  revisionId: number;
  current: ContentTranslation;
  onClose: () => void;
  onRestored: (item: ContentItem) => void;
}) {
  const { t } = useTranslation();
  const pageLang = useLang();
  const revision = useQuery({
    queryKey: ['admin', 'content', 'revision', props.revisionId],
    queryFn: async ({ signal }) =>
      (
        await call(
          contentEndpoints.revision,
          { query: { revision_id: String(props.revisionId) } },
          { signal },
        )
      ).revision,
  });

  const restore = async (shown: ContentRevisionDetail) => {
    let restored: ContentItem | undefined;
    // A refusal (someone saved meanwhile, a live text for an author) stays in the question.
    const yes = await confirm({
      title: t('staff_content.revisions.restore_title'),
      text: t('staff_content.revisions.restore_text', {
        date: formatDateTime(shown.created_at, pageLang),
      }),
      yes: { label: t('staff_content.revisions.restore') },
      onConfirm: async () => {
        restored = (
          await call(contentEndpoints.restore, {
            body: { revision_id: shown.revision_id, version: props.current.version },
          })
        ).item;
      },
    });
    if (yes && restored) {
      notify.success('staff_content.revisions.restored');
      props.onRestored(restored);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && props.onClose()}
      size="lg"
      title={t('staff_content.revisions.dialog_title')}
      description={
        revision.data
          ? t('staff_content.revisions.dialog_text', {
              date: formatDateTime(revision.data.created_at, pageLang),
              name: revision.data.author?.name ?? t('staff_content.revisions.someone'),
            })
          : undefined
      }
      footer={
        <>
          <Button type="button" variant="ghost" onClick={props.onClose}>
            {t('staff_content.revisions.close')}
          </Button>
          <Button
            type="button"
            variant="primary"
            disabled={!revision.data}
            onClick={() => revision.data && void restore(revision.data)}
          >
            {t('staff_content.revisions.restore')}
          </Button>
        </>
      }
    >
      {revision.isPending ? (
        <Spinner />
      ) : revision.isError ? (
        <FormError message={messageKeyOf('not_found')} />
      ) : (
        <dl className="flex max-h-[60vh] flex-col gap-4 overflow-y-auto">
          {COMPARED.map((field) => {
            const then = revision.data[field];
            const now = props.current[field];
            const differs = then !== now;
            return (
              <div key={field} data-differs={differs}>
                <dt className="text-sm font-medium text-slate-700">
                  {t(`staff_content.changed.${field}`)}
                  {differs && (
                    <span className="ml-2 text-xs font-normal text-amber-700">
                      {t('staff_content.revisions.differs')}
                    </span>
                  )}
                </dt>
                <dd className="mt-1 grid gap-2 md:grid-cols-2">
                  <Version label={t('staff_content.revisions.then')} text={then} />
                  <Version label={t('staff_content.revisions.now')} text={now} />
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </Modal>
  );
}

function Version({ label, text }: { label: string; text: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-slate-50 p-2">
      <p className="text-xs text-slate-500">{label}</p>
      <pre className="max-h-64 overflow-auto text-sm whitespace-pre-wrap break-words text-slate-800">
        {text || '—'}
      </pre>
    </div>
  );
}
