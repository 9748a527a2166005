import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_MESSAGES } from '#shared/contracts/admin/content.ts';
import { mediaEndpoints } from '#shared/contracts/admin/content-media.ts';
import { failureMessage, isApiError } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldError } from '../../../ui/form-field.tsx';
import { MEDIA_LIST_KEY, MediaPicker, type PickedImage, pickedImageOf } from './media-picker.tsx';

/** A stored image: found, or gone from the library since it was chosen. */
type Lookup = { kind: 'found'; image: PickedImage } | { kind: 'gone' };

const imageKey = (id: number) => [...MEDIA_LIST_KEY, 'image', id] as const;

/** A stored choice read again, under the library's key (an upload or a delete reads it anew). */
async function lookUp(id: number, signal: AbortSignal): Promise<Lookup> {
  try {
    const { media } = await call(mediaEndpoints.view, { query: { media_id: id } }, { signal });
    return { kind: 'found', image: pickedImageOf(media) };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return { kind: 'gone' };
    throw error;
  }
}

/**
 * Issue 22: the image a page shows when it is shared (Open Graph), chosen from the media
 * library (where it can be uploaded with its alt text first), shown small with its alt text,
 * and removable. A refusal (an image that no longer exists) shows under it.
 */
export function OgImageField(props: {
  label: string;
  hint: string;
  value: number | null;
  error?: string | undefined;
  onChange: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const ids = useId();
  const textId = `${ids}-text`;
  const messageId = `${ids}-message`;
  const chooseButton = useRef<HTMLButtonElement>(null);
  const [picking, setPicking] = useState(false);
  const { value, error } = props;
  const lookup = useQuery({
    queryKey: imageKey(value ?? 0),
    queryFn: ({ signal }) => lookUp(value ?? 0, signal),
    enabled: value !== null,
    staleTime: 60_000,
  });

  const pick = (image: PickedImage) => {
    const found: Lookup = { kind: 'found', image };
    queryClient.setQueryData(imageKey(image.media_id), found);
    props.onChange(image.media_id);
  };

  const remove = () => {
    props.onChange(null);
    // The remove button goes with the image: the focus stays in the field.
    chooseButton.current?.focus();
  };

  const found = lookup.data?.kind === 'found' ? lookup.data.image : undefined;
  return (
    <fieldset className="flex min-w-0 flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-slate-800">{props.label}</legend>
      <div
        className={`flex flex-wrap items-center gap-3 rounded-lg border bg-white p-2 ${error ? 'border-red-500' : 'border-[#dfe1e6]'}`}
      >
        {value !== null && (
          // The alt text is written beside the thumbnail: a screen reader hears it once.
          <div
            aria-hidden="true"
            className="flex h-16 w-28 shrink-0 items-center justify-center overflow-hidden rounded-md bg-slate-100"
          >
            {found && (
              <img
                src={found.url}
                alt=""
                width={found.width}
                height={found.height}
                className="h-full w-full object-cover"
              />
            )}
          </div>
        )}
        <p id={textId} className="min-w-0 flex-1 text-sm text-slate-700">
          {value === null
            ? t('staff_media.og.none')
            : found
              ? found.alt
              : lookup.isPending
                ? t('staff_media.og.loading')
                : lookup.isError
                  ? t(failureMessage(lookup.error))
                  : t(CONTENT_MESSAGES.unknownMedia)}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button
            ref={chooseButton}
            variant="secondary"
            // What is chosen now, then the hint or the refusal.
            aria-describedby={`${textId} ${messageId}`}
            // The field's refusal takes the focus here (see useFocusFirstInvalid).
            data-invalid={error ? true : undefined}
            onClick={() => setPicking(true)}
          >
            {t(value === null ? 'staff_media.og.choose' : 'staff_media.og.change')}
          </Button>
          {value !== null && (
            <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={remove}>
              {t('staff_media.og.remove')}
            </Button>
          )}
        </div>
      </div>
      {error ? (
        <FieldError id={messageId} message={error} />
      ) : (
        <p id={messageId} className="text-xs text-slate-500">
          {props.hint}
        </p>
      )}
      <MediaPicker
        open={picking}
        purpose="choose"
        onClose={() => setPicking(false)}
        onPick={pick}
      />
    </fieldset>
  );
}
