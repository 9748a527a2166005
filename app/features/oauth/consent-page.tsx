import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { QueryProvider } from '../../api/query-provider.tsx';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { AuthCard } from '../auth/auth-card.tsx';
import { oauthApi } from './oauth-api.ts';
import { ScopeList } from './scope-list.tsx';

/**
 * /{lang}/oauth/consent/{uid}: an app that is not ours asks to act for the signed-in person.
 * Our own apps never come here (they are allowed without asking). Either answer goes back
 * to the app through the provider, which the server names.
 */
export function ConsentPage() {
  // A plain page outside the signed-in frames: it brings its own query cache.
  return (
    <QueryProvider>
      <Consent />
    </QueryProvider>
  );
}

function Consent() {
  const { t } = useTranslation();
  const uid = useParams().uid ?? '';
  const [busy, setBusy] = useState<'allow' | 'deny'>();
  const [formError, setFormError] = useState<string>();
  const details = useQuery({
    queryKey: ['oauth', 'consent', uid],
    queryFn: () => oauthApi.consentDetails(uid),
    retry: false,
  });

  const answer = async (choice: 'allow' | 'deny') => {
    setBusy(choice);
    setFormError(undefined);
    try {
      const { redirect_to } =
        choice === 'allow' ? await oauthApi.confirm(uid) : await oauthApi.abort(uid);
      window.location.assign(redirect_to);
    } catch (error) {
      setFormError(applyApiErrors(error, () => {}, []));
      setBusy(undefined);
    }
  };

  if (details.isPending) {
    return (
      <AuthCard title={t('apps.consent.loading')}>
        <Spinner />
      </AuthCard>
    );
  }
  if (details.isError) {
    return (
      <AuthCard title={t('apps.consent.gone_title')} focusTitle>
        <p className="text-sm text-slate-700" role="alert">
          {t('apps.consent.gone_text')}
        </p>
      </AuthCard>
    );
  }
  const { client, scopes, email } = details.data;
  return (
    <AuthCard
      title={t('apps.consent.title', { app: client.name })}
      focusTitle
      lead={t('apps.consent.lead', { email })}
    >
      <div className="flex flex-col gap-5">
        {client.logo_uri && (
          <img src={client.logo_uri} alt="" width={48} height={48} className="size-12 rounded-lg" />
        )}
        <section aria-labelledby="consent-scopes">
          <h2 id="consent-scopes" className="mb-2 text-sm font-medium text-slate-900">
            {t('apps.consent.it_may')}
          </h2>
          <ScopeList scopes={scopes} />
        </section>
        <p className="text-xs text-slate-600">{t('apps.consent.revoke_hint')}</p>
        <FormError message={formError} />
        <div className="flex flex-wrap gap-3">
          <Button
            loading={busy === 'allow'}
            disabled={busy !== undefined}
            onClick={() => void answer('allow')}
          >
            {t('apps.consent.allow')}
          </Button>
          <Button
            variant="secondary"
            loading={busy === 'deny'}
            disabled={busy !== undefined}
            onClick={() => void answer('deny')}
          >
            {t('apps.consent.deny')}
          </Button>
        </div>
      </div>
    </AuthCard>
  );
}
