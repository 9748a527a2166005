import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CHALLENGE_PARAM, decodeChallenge } from '#shared/challenge.ts';
import { DATA_EXPORT_FILE_NAME, dataExportEndpoints as e } from '#shared/contracts/data-export.ts';
import { failureMessage, isCancelled } from '../../api/api-error.ts';
import { download } from '../../api/client.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { saveFile } from '../../lib/save-file.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { AuthCard, linkClass } from '../auth/auth-card.tsx';

type Step = { kind: 'ready' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * Issue 25: where the mailed link of a data export leads. The guard has checked the link's
 * challenge holds a token; downloading spends it, so it waits for the person's click (a
 * mail scanner or a prefetch opening the page spends nothing) and posts the token rather
 * than putting it in a request's URL.
 */
export function DataExportPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = decodeChallenge(params.get(CHALLENGE_PARAM) ?? '')?.token ?? '';
  const [step, setStep] = useState<Step>({ kind: 'ready' });
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    try {
      saveFile(await download(e.download, { body: { token } }), DATA_EXPORT_FILE_NAME);
      setStep({ kind: 'done' });
    } catch (error) {
      if (!isCancelled(error)) setStep({ kind: 'failed', message: failureMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const back = (
    <RouteLink name="account.profile" className={linkClass}>
      {t('data_export.page.back')}
    </RouteLink>
  );
  return (
    <AuthCard title={t('data_export.page.title')} focusTitle={step.kind !== 'ready'}>
      {step.kind === 'ready' && (
        <div className="flex flex-col items-start gap-4">
          <p className="text-sm text-slate-700">{t('data_export.page.text')}</p>
          <Button loading={busy} onClick={start}>
            {t('data_export.page.download')}
          </Button>
        </div>
      )}
      {step.kind === 'done' && (
        <div className="flex flex-col items-start gap-4">
          <p role="status" className="text-sm text-slate-700">
            {t('data_export.page.done')}
          </p>
          {back}
        </div>
      )}
      {step.kind === 'failed' && (
        <div className="flex flex-col items-start gap-4">
          <FormError message={step.message} />
          {back}
        </div>
      )}
    </AuthCard>
  );
}
