import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { slugify } from '#shared/content/slugify.ts';
import type { ContentCategory } from '#shared/contracts/admin/content.ts';
import { LANGS, type Lang } from '#shared/locales.ts';
import { isApiError, isCancelled, messageKeyOf } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { FormError, FormField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { type CategoryTree, categoriesKey, categoryName } from './category-trees.ts';

const CONTROL =
  'w-full rounded-lg border bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30';

interface Draft {
  name: string;
  url: string;
  description: string;
}

type Translation = ContentCategory['translations'][number];
type Errors = Partial<Record<string, string>>;

const draftOf = (saved: Translation | undefined): Draft => ({
  name: saved?.name ?? '',
  url: saved?.url ?? '',
  description: saved?.description ?? '',
});
const sameDraft = (a: Draft, b: Draft) =>
  a.name === b.name && a.url === b.url && a.description === b.description;

export interface CategoryEditorProps {
  tree: CategoryTree;
  /** The category edited; none for a new one. */
  category?: ContentCategory | undefined;
  /** The top-level categories a help category may be filed under. */
  parents?: readonly ContentCategory[];
  /** A new category's parent at first (the sub-categories screen). */
  initialParentId?: number | null;
  /** The sub-categories screen: a new category needs a parent. */
  requireParent?: boolean;
  onClose: () => void;
}

/**
 * A category in every language, as a dialog over its list: each language a tab, only the open
 * one saved. A refusal shows under its field and every draft stays as typed. The SEO fields
 * are the SEO screens' to change: a save sends back what they hold.
 */
export function CategoryEditor(props: CategoryEditorProps) {
  const { tree, parents = [], requireParent = false } = props;
  const { t } = useTranslation();
  const pageLang = useLang();
  const queryClient = useQueryClient();
  const [category, setCategory] = useState(props.category);
  const translationOf = (code: Lang) => category?.translations.find((tr) => tr.lang === code);
  // The page's language when the category has it, else its first.
  const [lang, setLang] = useState<Lang>(() =>
    !category || category.translations.some((tr) => tr.lang === pageLang)
      ? pageLang
      : (category.translations[0]?.lang ?? pageLang),
  );
  const [drafts, setDrafts] = useState<Partial<Record<Lang, Draft>>>({});
  const [urlTouched, setUrlTouched] = useState<Partial<Record<Lang, boolean>>>({});
  const savedParent = category?.parent_category_id ?? props.initialParentId ?? null;
  const [parentId, setParentId] = useState<number | null>(savedParent);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const saved = translationOf(lang);
  const draft = drafts[lang] ?? draftOf(saved);
  const dirtyLangs = LANGS.filter((code) => {
    const edited = drafts[code];
    return edited !== undefined && !sameDraft(edited, draftOf(translationOf(code)));
  });
  const parentChanged = category !== undefined && parentId !== category.parent_category_id;
  const dirty = dirtyLangs.length > 0 || parentChanged;
  const texts = `staff_categories.trees.${tree.name}`;
  const language = t(`staff_content.languages.${lang}`);

  const edit = (changes: Partial<Draft>) => {
    setDrafts((current) => {
      const next = { ...(current[lang] ?? draftOf(saved)), ...changes };
      // A new translation's address follows its name until staff type one.
      if (changes.name !== undefined && !saved && !urlTouched[lang])
        next.url = slugify(changes.name);
      return { ...current, [lang]: next };
    });
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(changes)) delete next[field];
      if (changes.name !== undefined && !saved) delete next.url;
      return next;
    });
  };

  const refreshLists = () => queryClient.invalidateQueries({ queryKey: categoriesKey(tree) });

  const save = async () => {
    setErrors({});
    setFormError(undefined);
    if (tree.nested && requireParent && parentId === null) {
      setErrors({ parent_category_id: 'input_errors.field_is_required' });
      return;
    }
    setSaving(true);
    const fields = { lang, name: draft.name, url: draft.url, description: draft.description };
    try {
      let answer: ContentCategory;
      if (category) {
        const seo = saved && {
          seo_title: saved.seo_title,
          seo_description: saved.seo_description,
          focus_keyphrase: saved.focus_keyphrase,
          og_image_id: saved.og_image_id,
          canonical_url: saved.canonical_url,
        };
        // The parent goes only when staff changed it: a translation's save leaves it be.
        const parent = parentChanged ? { parent_category_id: parentId } : {};
        answer = (
          await call(tree.endpoints.update, {
            body: {
              ...fields,
              ...seo,
              ...parent,
              category_id: category.category_id,
              version: saved?.version,
            },
          })
        ).category;
      } else {
        answer = (
          await call(tree.endpoints.create, {
            body: { ...fields, parent_category_id: tree.nested ? parentId : null },
          })
        ).category;
      }
      setCategory(answer);
      setParentId(answer.parent_category_id);
      setDrafts((current) => ({ ...current, [lang]: undefined }));
      notify.success(
        category ? 'staff_categories.editor.saved' : 'staff_categories.editor.created',
      );
      void refreshLists();
    } catch (error) {
      if (isCancelled(error)) return;
      if (!isApiError(error)) {
        console.error(error);
        setFormError(messageKeyOf('internal'));
        return;
      }
      if (error.status === 409 && category) {
        // Saved by someone else meanwhile: theirs is shown under the tabs, what was typed
        // stays, and a second save goes over the version now read.
        const fresh = await call(tree.endpoints.view, {
          query: { category_id: category.category_id },
        }).catch(() => undefined);
        if (fresh) setCategory(fresh.category);
      }
      const fieldErrors: Errors = {};
      for (const [field, messages] of Object.entries(error.validation)) {
        fieldErrors[field] = messages[0];
      }
      const shown = ['name', 'url', 'description', 'parent_category_id'];
      const unshown = Object.keys(fieldErrors).find((field) => !shown.includes(field));
      setErrors(fieldErrors);
      setFormError(
        error.info[0] ??
          (unshown ? fieldErrors[unshown] : undefined) ??
          (Object.keys(fieldErrors).length > 0 ? undefined : messageKeyOf(error.code)),
      );
    } finally {
      setSaving(false);
    }
  };

  const deleteLang = async () => {
    if (!category || !saved) return;
    const yes = await confirm({
      title: t('staff_categories.editor.delete_lang_title', { language }),
      text: t('staff_categories.editor.delete_lang_text'),
      icon: 'danger',
      actionName: 'delete-category-language',
      yes: { label: t('staff_categories.editor.delete_lang', { language }), variant: 'danger' },
      onConfirm: () =>
        call(tree.endpoints.deleteLang, { body: { category_id: category.category_id, lang } }),
    });
    if (!yes) return;
    const rest = category.translations.filter((tr) => tr.lang !== lang);
    setCategory({ ...category, translations: rest });
    setDrafts((current) => ({ ...current, [lang]: undefined }));
    notify.success('staff_categories.editor.lang_deleted', { values: { language } });
    void refreshLists();
  };

  const close = async () => {
    if (dirty && !saving) {
      const leave = await confirm({
        title: t('staff_categories.editor.discard_title'),
        text: t('staff_categories.editor.discard_text'),
        icon: 'warning',
        actionName: 'discard-category',
        yes: { label: t('staff_categories.editor.discard'), variant: 'danger' },
        no: { label: t('staff_categories.editor.keep_editing') },
      });
      if (!leave) return;
    }
    props.onClose();
  };

  const title = category
    ? t('staff_categories.editor.edit_title', { name: categoryName(category, pageLang) })
    : t(`${texts}.new_title`);
  // A category's own children keep it at the top level; it may not go under itself either,
  // but that is the server's to say (and it does, under the field).
  const parentChoices = parents.filter((parent) => parent.parent_category_id === null);
  const ids = useId();
  const tabId = (code: Lang) => `${ids}-tab-${code}`;
  const panelId = `${ids}-panel`;

  return (
    <Modal
      open
      size="lg"
      title={title}
      onOpenChange={(open) => {
        if (!open) void close();
      }}
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div
          role="tablist"
          aria-label={t('staff_categories.editor.languages')}
          className="flex flex-wrap gap-2"
        >
          {LANGS.map((code) => {
            const written = translationOf(code) !== undefined;
            return (
              <button
                key={code}
                id={tabId(code)}
                type="button"
                role="tab"
                aria-selected={code === lang}
                aria-controls={panelId}
                onClick={() => setLang(code)}
                className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-brand-500 aria-selected:border-brand-500 aria-selected:bg-brand-50"
              >
                {t(`staff_content.languages.${code}`)}
                <span className={`text-xs ${written ? 'text-emerald-700' : 'text-slate-500'}`}>
                  {t(written ? 'staff_categories.written' : 'staff_categories.missing')}
                </span>
                {dirtyLangs.includes(code) && (
                  <>
                    <span aria-hidden="true">•</span>
                    <span className="sr-only">{t('staff_categories.editor.unsaved')}</span>
                  </>
                )}
              </button>
            );
          })}
        </div>
        <div
          id={panelId}
          role="tabpanel"
          aria-labelledby={tabId(lang)}
          className="flex flex-col gap-4"
        >
          {!saved && category && (
            <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
              {t('staff_categories.editor.new_language', { language })}
            </p>
          )}
          <FormError message={formError} />
          <TextInput
            label={t('staff_categories.fields.name')}
            value={draft.name}
            required
            error={errors.name}
            onChange={(event) => edit({ name: event.target.value })}
          />
          <TextInput
            label={t('staff_categories.fields.url')}
            value={draft.url}
            required
            error={errors.url}
            hint={t('staff_categories.fields.url_hint')}
            onChange={(event) => {
              setUrlTouched((current) => ({ ...current, [lang]: true }));
              edit({ url: event.target.value });
            }}
          />
          <FormField label={t('staff_categories.fields.description')} error={errors.description}>
            {(control) => (
              <textarea
                {...control}
                rows={3}
                value={draft.description}
                onChange={(event) => edit({ description: event.target.value })}
                className={`${CONTROL} py-2 ${errors.description ? 'border-red-500' : 'border-[#dfe1e6]'}`}
              />
            )}
          </FormField>
          {tree.nested && (
            <FormField
              label={t('staff_categories.fields.parent')}
              error={errors.parent_category_id}
              hint={t('staff_categories.fields.parent_hint')}
              required={requireParent}
            >
              {(control) => (
                <select
                  {...control}
                  value={parentId ?? ''}
                  onChange={(event) => {
                    setParentId(event.target.value === '' ? null : Number(event.target.value));
                    setErrors(({ parent_category_id: _, ...rest }) => rest);
                  }}
                  className={`${CONTROL} h-10 ${errors.parent_category_id ? 'border-red-500' : 'border-[#dfe1e6]'}`}
                >
                  <option value="">{t('staff_categories.fields.no_parent')}</option>
                  {parentChoices.map((parent) => (
                    <option key={parent.category_id} value={parent.category_id}>
                      {categoryName(parent, pageLang)}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          )}
          {category && (
            <p className="text-xs text-slate-500">{t('staff_categories.editor.seo_note')}</p>
          )}
        </div>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <div>
            {category && saved && category.translations.length > 1 && (
              <Button type="button" variant="ghost" onClick={() => void deleteLang()}>
                {t('staff_categories.editor.delete_lang', { language })}
              </Button>
            )}
          </div>
          <div className="flex flex-wrap gap-3">
            <Button type="button" variant="secondary" onClick={() => void close()}>
              {t('staff_categories.editor.close')}
            </Button>
            <Button type="submit" variant="primary" loading={saving}>
              {t('staff_categories.editor.save', { language })}
            </Button>
          </div>
        </div>
      </form>
    </Modal>
  );
}
