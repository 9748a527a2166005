import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { failureMessage } from '../../api/api-error.ts';
import { useDebouncedCallback } from '../../lib/use-debounced-callback.ts';
import { pathFor } from '../../routes/match-route.ts';
import { signOut } from '../../session/sign-out.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { notify } from '../../ui/toast.tsx';
import { AuthCard } from '../auth/auth-card.tsx';
import { useLang } from '../auth/use-lang.ts';
import { useAccount } from './use-account.ts';

/** §9 "reactivation debounce 300 ms": a double click sends one request. */
export const REACTIVATE_DEBOUNCE_MS = 300;

/**
 * §2 reactivate / reactivate-account: where a deactivated user is kept (§4, §6). Reactivating
 * clears the delete date; the §4 reaction then re-checks the user and opens the dashboard.
 */
export function ReactivatePage() {
  const { t, i18n } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const { user, api, applyUser } = useAccount();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [signingOut, setSigningOut] = useState(false);

  const reactivate = useDebouncedCallback(async () => {
    setFailure(undefined);
    try {
      const { user: next } = await api.reactivate();
      notify.success('settings.reactivate.done');
      await applyUser(next);
    } catch (error) {
      setFailure(failureMessage(error));
    } finally {
      setBusy(false);
    }
  }, REACTIVATE_DEBOUNCE_MS);

  const deleteAt = user.delete_at
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(user.delete_at))
    : undefined;

  return (
    <AuthCard title={t('settings.reactivate.title')}>
      <div className="flex flex-col gap-3 text-sm text-slate-700">
        {deleteAt && (
          <p data-testid="delete-at">
            <Trans
              i18nKey="settings.reactivate.scheduled"
              values={{ date: deleteAt }}
              components={{ strong: <strong className="font-medium text-slate-900" /> }}
            />
          </p>
        )}
        <p>{t('settings.reactivate.text')}</p>
      </div>
      <FormError message={failure} className="mt-4" />
      <div className="mt-6 flex flex-col gap-3">
        <Button
          loading={busy}
          onClick={() => {
            setBusy(true);
            reactivate();
          }}
        >
          {t('settings.reactivate.button')}
        </Button>
        <Button
          variant="secondary"
          loading={signingOut}
          onClick={async () => {
            setSigningOut(true);
            await signOut(() => navigate(pathFor('signin', lang), { replace: true }));
          }}
        >
          {t('settings.reactivate.sign_out')}
        </Button>
      </div>
    </AuthCard>
  );
}
