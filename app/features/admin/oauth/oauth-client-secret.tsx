import { useTranslation } from 'react-i18next';
import { CopyField } from '../servers/copy-field.tsx';

/**
 * A confidential client's secret, this once (the server keeps it sealed and never answers it
 * again): a warning, the client id and the secret to copy.
 */
export function OAuthClientSecret({ clientId, secret }: { clientId: string; secret: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <div
        role="alert"
        className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        data-testid="secret-warning"
      >
        <p className="font-semibold">{t('staff_oauth.secret.once_title')}</p>
        <p className="mt-1">{t('staff_oauth.secret.once_text')}</p>
      </div>
      <CopyField
        label={t('staff_oauth.fields.client_id')}
        value={clientId}
        copyLabel={t('staff_oauth.secret.copy_id')}
        testId="client-id"
      />
      <CopyField
        label={t('staff_oauth.secret.label')}
        value={secret}
        copyLabel={t('staff_oauth.secret.copy')}
        testId="client-secret"
      />
    </div>
  );
}
