import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_MESSAGES, type ContentMediaItem } from '#shared/contracts/admin/content.ts';
import {
  MEDIA_ALT_FIELD,
  MEDIA_ALT_MAX,
  MEDIA_FILE_FIELD,
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  type MediaUse,
  mediaEndpoints,
  parseMediaUse,
} from '#shared/contracts/admin/content-media.ts';
import { failureMessage, isApiError, isCancelled } from '../../../api/api-error.ts';
import { call, uploadTo } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { FieldError } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { notify, notifyRequestError } from '../../../ui/toast.tsx';
import { SearchField } from '../kit/list-filters.tsx';
import { Pager } from '../kit/pager.tsx';

/** What the picker hands back: enough for `![alt](url)`, a box that does not jump, and its id. */
export interface PickedImage {
  media_id: number;
  url: string;
  alt: string;
  width: number;
  height: number;
}

export interface MediaPickerProps {
  /** Whether the dialog shows. */
  open: boolean;
  /** Closing without a choice (the close button, Escape, outside click); also after a pick. */
  onClose: () => void;
  /** An image was chosen; the picker then closes itself through onClose. */
  onPick: (image: PickedImage) => void;
  /** What choosing does: put the image into the text (the default), or use it elsewhere. */
  purpose?: 'insert' | 'choose';
}

const PER_PAGE = 24;
/** Every query of the library starts so: an upload or a delete reads them all again. */
export const MEDIA_LIST_KEY = ['admin', mediaEndpoints.list.url] as const;

/** An image of the library as the picker hands it back. */
export function pickedImageOf(media: ContentMediaItem): PickedImage {
  const { media_id, url, alt, width, height } = media;
  return { media_id, url, alt, width, height };
}

/** An image as Markdown: brackets and backslashes in the alt text taken literally. */
export function imageMarkdown(image: Pick<PickedImage, 'url' | 'alt'>): string {
  const alt = image.alt.replace(/[\\[\]]/g, (match) => `\\${match}`).replace(/\s+/g, ' ');
  return `![${alt}](${image.url})`;
}

/**
 * Issue 22 the media library as a dialog: the images as a grid with their alt texts, a
 * search, an upload with a progress bar that needs its alt text, and delete with a
 * confirmation (a second one naming where, when the server says the image is in use).
 */
export function MediaPicker({ open, onClose, onPick, purpose = 'insert' }: MediaPickerProps) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  return (
    <Modal
      open={open}
      size="lg"
      dismissible={!uploading}
      onOpenChange={(next) => !next && onClose()}
      title={t('staff_media.title')}
      description={t(
        purpose === 'insert' ? 'staff_media.description' : 'staff_media.choose_description',
      )}
    >
      {open && (
        <div className="flex flex-col gap-6">
          <UploadForm onUploading={setUploading} />
          <Library
            purpose={purpose}
            onPick={(image) => {
              onPick(image);
              onClose();
            }}
          />
        </div>
      )}
    </Modal>
  );
}

type UploadErrors = Partial<Record<typeof MEDIA_FILE_FIELD | typeof MEDIA_ALT_FIELD, string>>;

/** The server's refusal of an upload, under its fields; undefined when it is not about them. */
function uploadErrors(error: unknown): UploadErrors | undefined {
  if (!isApiError(error)) return undefined;
  const image = error.validation[MEDIA_FILE_FIELD]?.[0];
  const alt = error.validation[MEDIA_ALT_FIELD]?.[0];
  if (image || alt) return { image, alt };
  if (error.status === 413) return { image: MEDIA_MESSAGES.tooLarge };
  return undefined;
}

function UploadForm({ onUploading }: { onUploading: (uploading: boolean) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [alt, setAlt] = useState('');
  const [errors, setErrors] = useState<UploadErrors>({});
  const [formError, setFormError] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const aborter = useRef<AbortController>(undefined);
  const ids = useId();
  const headingId = `${ids}-heading`;
  const fileMessageId = `${ids}-file-message`;
  // Closing the dialog (or leaving the screen) stops an upload under way.
  useEffect(() => () => aborter.current?.abort(), []);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setFormError(undefined);
    // Checked here too, so nobody waits for 10 MB to travel only to hear it was too much.
    if (chosen.size > MEDIA_MAX_BYTES) {
      setFile(undefined);
      setErrors({ image: MEDIA_MESSAGES.tooLarge });
      return;
    }
    setFile(chosen);
    setErrors((current) => ({ ...current, image: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The dialog may sit inside the editor's form in React's tree: its submit stays here.
    event.stopPropagation();
    if (progress !== undefined) return;
    const text = alt.trim();
    const missing: UploadErrors = {};
    if (!file) missing.image = 'input_errors.field_is_required';
    if (text === '') missing.alt = CONTENT_MESSAGES.altRequired;
    else if (text.length > MEDIA_ALT_MAX) missing.alt = 'input_errors.field_is_too_long';
    setErrors(missing);
    setFormError(undefined);
    if (!file || missing.alt) return;
    const form = new FormData();
    form.append(MEDIA_ALT_FIELD, text);
    form.append(MEDIA_FILE_FIELD, file, file.name);
    const controller = new AbortController();
    aborter.current = controller;
    setProgress(0);
    onUploading(true);
    try {
      await uploadTo(mediaEndpoints.upload, form, {
        onProgress: setProgress,
        signal: controller.signal,
      });
      setFile(undefined);
      setAlt('');
      notify.success('staff_media.upload.done');
      await queryClient.invalidateQueries({ queryKey: MEDIA_LIST_KEY });
    } catch (failure) {
      if (isCancelled(failure)) return;
      const refused = uploadErrors(failure);
      if (refused) setErrors(refused);
      else setFormError(failureMessage(failure));
    } finally {
      setProgress(undefined);
      onUploading(false);
    }
  };

  const busy = progress !== undefined;
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4"
    >
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        {t('staff_media.upload.heading')}
      </h3>
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center gap-3">
          <input
            ref={input}
            type="file"
            accept="image/*"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="media-file-input"
            onChange={choose}
          />
          <Button
            variant="secondary"
            disabled={busy}
            aria-describedby={fileMessageId}
            onClick={() => input.current?.click()}
          >
            {t(file ? 'staff_media.upload.change' : 'staff_media.upload.choose')}
          </Button>
          <span className="min-w-0 truncate text-sm text-slate-700" data-testid="media-file-name">
            {file ? file.name : t('staff_media.upload.no_file')}
          </span>
        </div>
        {errors.image ? (
          <FieldError id={fileMessageId} message={errors.image} />
        ) : (
          <p id={fileMessageId} className="text-xs text-slate-500">
            {t('staff_media.upload.file_hint')}
          </p>
        )}
      </div>
      <TextInput
        label={t('staff_media.upload.alt')}
        hint={t('staff_media.upload.alt_hint')}
        required
        value={alt}
        maxLength={MEDIA_ALT_MAX}
        disabled={busy}
        error={errors.alt}
        onChange={(event) => setAlt(event.target.value)}
      />
      {formError && (
        <p role="alert" className="text-sm text-red-600">
          {t(formError)}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={busy}>
          {t('staff_media.upload.submit')}
        </Button>
        {busy && (
          <ProgressBar
            value={progress}
            label={t('staff_media.upload.progress')}
            className="max-w-xs flex-1"
          />
        )}
      </div>
    </form>
  );
}

function Library({
  onPick,
  purpose,
}: {
  onPick: (image: PickedImage) => void;
  purpose: 'insert' | 'choose';
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<number>();
  const headingId = useId();
  const query = { page, per_page: PER_PAGE, ...(search ? { search } : {}) };
  const list = useQuery({
    queryKey: [...MEDIA_LIST_KEY, query],
    queryFn: ({ signal }) => call(mediaEndpoints.list, { query }, { signal }),
    placeholderData: (previous) => previous,
  });
  // The last image of the last page deleted: the page before it instead.
  const lastPage = list.data?.controls.last_page;
  useEffect(() => {
    if (lastPage !== undefined && page > lastPage) setPage(lastPage);
  }, [lastPage, page]);

  const remove = async (media: ContentMediaItem) => {
    const sure = await confirm({
      title: t('staff_media.delete_title'),
      text: t('staff_media.delete_text', { alt: media.alt }),
      icon: 'warning',
      actionName: 'media-delete',
      yes: { label: t('staff_media.delete_yes'), variant: 'danger' },
      no: { label: t('staff_media.keep') },
    });
    if (!sure) return;
    setDeleting(media.media_id);
    try {
      const body = { media_id: media.media_id, in_use_confirmed: false };
      try {
        await call(mediaEndpoints.delete, { body });
      } catch (failure) {
        const uses = usesOf(failure);
        if (!uses) throw failure;
        const anyway = await confirm({
          title: t('staff_media.in_use_title'),
          text: t('staff_media.in_use_text', { places: uses.map(placeName).join('; ') }),
          icon: 'danger',
          actionName: 'media-delete-in-use',
          yes: { label: t('staff_media.in_use_yes'), variant: 'danger' },
          no: { label: t('staff_media.keep') },
        });
        if (!anyway) return;
        await call(mediaEndpoints.delete, { body: { ...body, in_use_confirmed: true } });
      }
      notify.success('staff_media.deleted');
      await queryClient.invalidateQueries({ queryKey: MEDIA_LIST_KEY });
    } catch (failure) {
      notifyRequestError(failure);
    } finally {
      setDeleting(undefined);
    }
  };

  /** A place an image is used, in words: what it is, its name, its language. */
  const placeName = (use: MediaUse | string): string => {
    if (typeof use === 'string') return use;
    const name = use.kind === 'main_page' ? t(`staff_seo.pages.${use.name}`) : use.name;
    return t('staff_media.place', {
      kind: t(`staff_media.use_kinds.${use.kind}`),
      name,
      language: t(`staff_content.languages.${use.lang}`),
    });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        {t('staff_media.library')}
      </h3>
      <search>
        <SearchField
          label={t('staff_media.search')}
          value={search}
          onSearch={(value) => {
            setSearch(value.trim());
            setPage(1);
          }}
        />
      </search>
      {list.isPending ? (
        <LoadingBlock />
      ) : list.isError ? (
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(list.error))}
          action={<Button onClick={() => list.refetch()}>{t('staff.kit.retry')}</Button>}
        />
      ) : list.data.items.length === 0 ? (
        <EmptyState
          title={t(search ? 'staff_media.no_match_title' : 'staff_media.empty_title')}
          text={t(search ? 'staff_media.no_match_text' : 'staff_media.empty_text')}
        />
      ) : (
        <>
          <ul
            aria-busy={list.isFetching || undefined}
            className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4"
          >
            {list.data.items.map((media) => (
              <li
                key={media.media_id}
                className="flex flex-col overflow-hidden rounded-xl border border-slate-200"
              >
                <img
                  src={media.url}
                  // The caption below says the same: a screen reader hears it once.
                  alt=""
                  width={media.width}
                  height={media.height}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[4/3] w-full bg-slate-100 object-contain"
                />
                <div className="flex flex-1 flex-col gap-1 p-2">
                  <p className="line-clamp-2 text-sm text-slate-900" data-testid="media-alt">
                    {media.alt}
                  </p>
                  <p className="text-xs text-slate-500">
                    {t('staff_media.size', { width: media.width, height: media.height })}
                    {media.uses > 0 && (
                      <span className="ms-2 rounded bg-amber-50 px-1.5 py-0.5 text-amber-800">
                        {t('staff_media.in_use')}
                      </span>
                    )}
                  </p>
                  <div className="mt-auto flex gap-1 pt-1">
                    <Button
                      className="flex-1 px-2"
                      aria-label={t(
                        purpose === 'insert'
                          ? 'staff_media.insert_label'
                          : 'staff_media.choose_label',
                        { alt: media.alt },
                      )}
                      onClick={() => onPick(pickedImageOf(media))}
                    >
                      {t(purpose === 'insert' ? 'staff_media.insert' : 'staff_media.choose')}
                    </Button>
                    <Button
                      variant="ghost"
                      className="px-2 text-red-700 hover:bg-red-50"
                      aria-label={t('staff_media.delete_label', { alt: media.alt })}
                      loading={deleting === media.media_id}
                      onClick={() => void remove(media)}
                    >
                      {t('staff_media.delete')}
                    </Button>
                  </div>
                </div>
              </li>
            ))}
          </ul>
          <Pager controls={list.data.controls} onPage={setPage} />
        </>
      )}
    </section>
  );
}

/** The places the server named when it refused to delete an image in use, or undefined. */
function usesOf(error: unknown): (MediaUse | string)[] | undefined {
  if (!isApiError(error) || error.status !== 422) return undefined;
  const messages = error.validation.in_use_confirmed;
  if (!messages || messages[0] !== CONTENT_MESSAGES.mediaInUse) return undefined;
  return messages.slice(1).map((text) => parseMediaUse(text) ?? text);
}
