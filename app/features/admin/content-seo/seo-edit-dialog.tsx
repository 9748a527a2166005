import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryPath, contentPath } from '#shared/content/public-paths.ts';
import {
  type ContentCategory,
  type SeoFields,
  seoEndpoints,
} from '#shared/contracts/admin/content.ts';
import type { Lang } from '#shared/locales.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { FormError } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import type { ContentArea } from '../content/content-areas.ts';
import { contentItemKey } from '../content/content-editor.tsx';
import { SeoPanel, type SeoPanelInput } from '../content/seo-panel.tsx';
import { CATEGORY_TREES } from '../content-categories/category-trees.ts';
import {
  refusalOf,
  type SeoDraft,
  type SeoRefusal,
  sameSeoDraft,
  seoDraftOf,
  seoRequestOf,
} from './seo-draft.ts';
import { SeoFieldsForm, useFocusFirstInvalid } from './seo-fields.tsx';

/** What the dialog edits: one translation of an item, or of a category. */
export type SeoTarget =
  | { type: 'item'; area: ContentArea; id: number; lang: Lang; name: string }
  | {
      type: 'category';
      tree: 'blog' | 'help';
      category: ContentCategory;
      lang: Lang;
      name: string;
      /** The list to read again after a save. */
      listUrl: string;
    };

/** An item with every translation, as the editor reads it (one cache entry for both). */
function useContentItem(area: ContentArea, id: number) {
  return useQuery({
    queryKey: contentItemKey(area, id),
    queryFn: ({ signal }) =>
      call(area.endpoints.view, { query: { id } }, { signal }).then((answer) => answer.item),
  });
}

/** Only the SEO fields of one translation, in a dialog over its list. */
export function SeoEditDialog({ target, onClose }: { target: SeoTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const [dirty, setDirty] = useState(false);
  const close = async () => {
    if (dirty) {
      const leave = await confirm({
        title: t('staff.kit.leave.title'),
        text: t('staff.kit.leave.text'),
        icon: 'warning',
        yes: { label: t('staff.kit.leave.yes'), variant: 'danger' },
        no: { label: t('staff.kit.leave.no') },
      });
      if (!leave) return;
    }
    onClose();
  };
  return (
    <Modal
      open
      size="lg"
      onOpenChange={(open) => !open && void close()}
      title={t('staff_seo.dialog.title', {
        name: target.name,
        language: t(`staff_content.languages.${target.lang}`),
      })}
    >
      {target.type === 'item' ? (
        <ItemSeo target={target} onDirty={setDirty} onDone={onClose} onCancel={close} />
      ) : (
        <CategorySeo target={target} onDirty={setDirty} onDone={onClose} onCancel={close} />
      )}
    </Modal>
  );
}

interface FormProps<T extends SeoTarget['type']> {
  target: Extract<SeoTarget, { type: T }>;
  onDirty: (dirty: boolean) => void;
  onDone: () => void;
  onCancel: () => void;
}

function ItemSeo({ target, onDirty, onDone, onCancel }: FormProps<'item'>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const item = useContentItem(target.area, target.id);
  if (item.isPending) return <LoadingBlock />;
  // Once read, a failed refetch (after a 409) leaves the form and what was typed in place.
  if (!item.data) {
    return (
      <EmptyState
        title={t('staff.kit.load_failed')}
        text={t(failureMessage(item.error))}
        action={<Button onClick={() => item.refetch()}>{t('staff.kit.retry')}</Button>}
      />
    );
  }
  const translation = item.data.translations.find((tr) => tr.lang === target.lang);
  if (!translation) {
    return <EmptyState title={t('staff_seo.dialog.no_translation')} />;
  }
  const { area, lang } = target;
  return (
    <SeoEditForm
      stored={translation}
      onDirty={onDirty}
      onCancel={onCancel}
      panel={(draft) => ({
        lang,
        title: draft.seo_title || translation.name,
        description: draft.seo_description,
        slug: translation.url,
        keyphrase: draft.focus_keyphrase,
        markdown: translation.contents,
        address: `${window.location.host}${contentPath(area.kind, lang, translation.url)}`,
      })}
      titleFallback={translation.name}
      save={async (fields) => {
        await call(seoEndpoints.updateItem, {
          body: { id: target.id, lang, version: translation.version, ...fields },
        });
        await queryClient.invalidateQueries({ queryKey: contentItemKey(area, target.id) });
        onDone();
      }}
      onStale={async () => {
        await queryClient.invalidateQueries({ queryKey: contentItemKey(area, target.id) });
      }}
    />
  );
}

/** A category with every translation, read again after a 409 (the list's copy opens it). */
function useCategory(target: Extract<SeoTarget, { type: 'category' }>) {
  const view = CATEGORY_TREES[target.tree].endpoints.view;
  const id = target.category.category_id;
  return useQuery({
    queryKey: ['admin', view.url, id],
    queryFn: ({ signal }) =>
      call(view, { query: { category_id: id } }, { signal }).then((answer) => answer.category),
    initialData: target.category,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function CategorySeo({ target, onDirty, onDone, onCancel }: FormProps<'category'>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { lang, tree } = target;
  const category = useCategory(target).data;
  const translation = category.translations.find((tr) => tr.lang === lang);
  if (!translation) return <EmptyState title={t('staff_seo.dialog.no_translation')} />;
  return (
    <SeoEditForm
      stored={translation}
      onDirty={onDirty}
      onCancel={onCancel}
      panel={(draft) => ({
        lang,
        title: draft.seo_title || translation.name,
        description: draft.seo_description,
        slug: translation.url,
        keyphrase: draft.focus_keyphrase,
        markdown: translation.description,
        address: `${window.location.host}${categoryPath(tree, lang, translation.url)}`,
      })}
      titleFallback={translation.name}
      save={async (fields) => {
        await call(seoEndpoints.updateCategory, {
          body: {
            category_id: category.category_id,
            lang,
            version: translation.version,
            ...fields,
          },
        });
        await queryClient.invalidateQueries({ queryKey: ['admin', target.listUrl] });
        onDone();
      }}
      onStale={async () => {
        await queryClient.refetchQueries({
          queryKey: ['admin', CATEGORY_TREES[tree].endpoints.view.url, category.category_id],
        });
      }}
    />
  );
}

type StoredSeo = Parameters<typeof seoDraftOf>[0] & { name: string };

/**
 * The form of the dialog. A refusal shows under its field with what was typed kept; a 409
 * (someone saved the translation meanwhile) says so and reads it again, still keeping what
 * was typed, so a second save goes over the version now shown.
 */
function SeoEditForm(props: {
  stored: StoredSeo;
  titleFallback: string;
  panel: (draft: SeoDraft) => SeoPanelInput;
  save: (fields: SeoFields) => Promise<void>;
  onStale?: () => Promise<void>;
  onDirty: (dirty: boolean) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const saved = seoDraftOf(props.stored);
  const [draft, setDraft] = useState<SeoDraft>(saved);
  const [refusal, setRefusal] = useState<SeoRefusal>();
  const [saving, setSaving] = useState(false);
  const formRef = useFocusFirstInvalid(refusal);
  const dirty = !sameSeoDraft(draft, saved);

  const edit = (changes: Partial<SeoDraft>) => {
    const next = { ...draft, ...changes };
    setDraft(next);
    props.onDirty(!sameSeoDraft(next, saved));
    if (refusal) {
      const fields = { ...refusal.fields };
      for (const field of Object.keys(changes)) delete fields[field as keyof typeof fields];
      setRefusal({ ...refusal, fields });
    }
  };

  const save = async () => {
    const request = seoRequestOf(draft);
    if (!request.ok) {
      setRefusal(request.refusal);
      return;
    }
    setSaving(true);
    setRefusal(undefined);
    try {
      await props.save(request.fields);
      props.onDirty(false);
      notify.success('staff_seo.saved');
    } catch (error) {
      const refused = refusalOf(error);
      if (!refused) return;
      if (refused.stale) {
        setRefusal({ fields: {}, form: 'staff_seo.errors.stale', stale: true });
        await props.onStale?.();
      } else setRefusal(refused);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      ref={formRef}
      noValidate
      className="grid gap-6 md:grid-cols-[minmax(0,1fr)_18rem]"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="flex flex-col gap-4">
        <FormError message={refusal?.form} />
        {refusal?.stale && dirty && (
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              setDraft(saved);
              setRefusal(undefined);
              props.onDirty(false);
            }}
          >
            {t('staff_seo.dialog.show_theirs')}
          </Button>
        )}
        <SeoFieldsForm
          draft={draft}
          errors={refusal?.fields ?? {}}
          onChange={edit}
          titleFallback={props.titleFallback}
        />
        <div className="flex flex-wrap justify-end gap-3">
          <Button type="button" variant="secondary" onClick={props.onCancel}>
            {t('staff.kit.cancel')}
          </Button>
          <Button type="submit" variant="primary" loading={saving}>
            {t('staff_seo.save')}
          </Button>
        </div>
      </div>
      <SeoPanel input={props.panel(draft)} />
    </form>
  );
}
