import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_MESSAGES, AVATAR_MAX_BYTES } from '#shared/contracts/account.ts';
import { failureMessage, isApiError, isCancelled } from '../../api/api-error.ts';
import { displayName, photoUrl } from '../../layout/avatar-menu.tsx';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { Panel } from '../../ui/panel.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { notify, notifyRequestError } from '../../ui/toast.tsx';
import { useAccount } from './use-account.ts';

/** What a server refusal of the photo says on the subtitle (§5), or undefined for a toast. */
function photoError(error: unknown): string | undefined {
  if (!isApiError(error)) return undefined;
  return (
    error.validation.photo?.[0] ??
    (error.status === 413 ? ACCOUNT_MESSAGES.imageTooLarge : undefined)
  );
}

/**
 * §5 the profile picture: any image up to 20 MB, uploaded as the form field `photo` with a
 * progress bar; the server checks and re-encodes it. A refusal shows on the subtitle.
 */
export function AvatarPanel() {
  const { t } = useTranslation();
  const { user, api, applyUser } = useAccount();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number>();
  const [error, setError] = useState<string>();
  const [removing, setRemoving] = useState(false);
  const photo = photoUrl(user.photo);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(undefined);
    // Checked here too, so nobody waits for 20 MB to travel only to hear it was too much.
    if (file.size > AVATAR_MAX_BYTES) {
      setError(ACCOUNT_MESSAGES.imageTooLarge);
      return;
    }
    setProgress(0);
    try {
      const { user: next } = await api.uploadPhoto(file, setProgress);
      await applyUser(next);
      notify.success('toasts.profile_picture_added');
    } catch (failure) {
      if (isCancelled(failure)) return;
      const message = photoError(failure);
      if (message) setError(message);
      else setError(failureMessage(failure));
    } finally {
      setProgress(undefined);
    }
  };

  const remove = () =>
    confirm({
      title: t('settings.photo.remove_title'),
      text: t('settings.photo.remove_text'),
      icon: 'warning',
      actionName: 'avatar-delete',
      modal: 'avatar-delete',
      yes: { label: t('settings.photo.remove') },
      onConfirm: async () => {
        setRemoving(true);
        try {
          const { user: next } = await api.removePhoto();
          await applyUser(next);
          notify.success('toasts.profile_picture_removed');
        } finally {
          setRemoving(false);
        }
      },
    }).catch(notifyRequestError);

  const uploading = progress !== undefined;
  return (
    <Panel
      id="account-photo"
      title={t('settings.photo.title')}
      description={
        error ? (
          <span role="alert" className="text-red-600" data-testid="photo-error">
            {t(error)}
          </span>
        ) : (
          t('settings.photo.subtitle')
        )
      }
    >
      <div className="flex flex-wrap items-center gap-5">
        {photo ? (
          <img
            src={photo}
            alt={t('settings.photo.alt')}
            className="size-20 rounded-full border border-slate-200 object-cover"
            data-testid="profile-photo"
          />
        ) : (
          <span
            aria-hidden="true"
            className="flex size-20 items-center justify-center rounded-full bg-brand-50 text-2xl font-semibold text-brand-700"
          >
            {displayName(user).replace('@', '').charAt(0).toUpperCase()}
          </span>
        )}
        <div className="flex min-w-48 flex-1 flex-col gap-3">
          <div className="flex flex-wrap gap-2">
            <input
              ref={input}
              type="file"
              accept="image/*"
              className="sr-only"
              tabIndex={-1}
              aria-hidden="true"
              data-testid="photo-input"
              onChange={upload}
            />
            <Button variant="secondary" loading={uploading} onClick={() => input.current?.click()}>
              {t(photo ? 'settings.photo.change' : 'settings.photo.upload')}
            </Button>
            {photo && (
              <Button
                variant="ghost"
                className="text-red-700 hover:bg-red-50"
                loading={removing}
                disabled={uploading}
                onClick={remove}
              >
                {t('settings.photo.remove')}
              </Button>
            )}
          </div>
          {uploading && <ProgressBar value={progress} label={t('settings.photo.uploading')} />}
        </div>
      </div>
    </Panel>
  );
}
