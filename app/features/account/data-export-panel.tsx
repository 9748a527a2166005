import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type DataExportStatusResponse,
  dataExportEndpoints as e,
} from '#shared/contracts/data-export.ts';
import { isStaff } from '#shared/roles.ts';
import { failureMessage, isApiError } from '../../api/api-error.ts';
import { call } from '../../api/client.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { Panel } from '../../ui/panel.tsx';
import { QueryFailure } from '../../ui/query-failure.tsx';
import { LoadingBlock, Spinner } from '../../ui/spinner.tsx';
import { useAccount } from './use-account.ts';

export const dataExportKey = ['account', 'data-export'] as const;

/** While an export is being built the panel asks again this often, until it is ready. */
const POLL_MS = 3_000;

function formatWhen(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

/**
 * Issue 25 "Your data": a customer asks for a copy of everything we keep about them; a job
 * builds it and mails a link that downloads it once, for a day. The panel shows where the
 * latest request stands and announces each change to screen readers.
 */
export function DataExportPanel() {
  const { user } = useAccount();
  // Staff use this page for their own account; the export is a customer's.
  return isStaff(user.role) ? null : <CustomerDataExport />;
}

function CustomerDataExport() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: dataExportKey,
    queryFn: ({ signal }) => call(e.status, {}, { signal }),
    refetchInterval: (query) => (query.state.data?.export?.state === 'pending' ? POLL_MS : false),
  });
  const [refusal, setRefusal] = useState<string>();
  const request = useMutation({
    mutationFn: () => call(e.request),
    onMutate: () => setRefusal(undefined),
    onSuccess: (answer: DataExportStatusResponse) =>
      queryClient.setQueryData(dataExportKey, answer),
    onError: (error) => {
      setRefusal(failureMessage(error));
      // A refusal says the state moved on elsewhere (another tab): show where it stands.
      if (isApiError(error)) void status.refetch();
    },
  });

  const when = (iso: string | null) => (iso ? formatWhen(iso, i18n.language) : '');
  const current = status.data?.export ?? null;
  const nextAt = status.data?.next_request_at ?? null;
  const waiting = nextAt !== null && Date.parse(nextAt) > Date.now();
  const mayAsk = current?.state !== 'pending' && !waiting;

  return (
    <Panel
      id="data-export"
      title={t('data_export.title')}
      description={t('data_export.description')}
    >
      {status.isPending ? (
        <LoadingBlock />
      ) : status.isError ? (
        <QueryFailure
          error={status.error}
          onRetry={() => status.refetch()}
          retryLabel={t('data_export.try_again')}
        />
      ) : (
        <div className="flex flex-col items-start gap-4">
          <div role="status" className="text-sm text-slate-700" data-testid="data-export-state">
            {current?.state === 'pending' && (
              <span className="flex items-center gap-3">
                <Spinner size="sm" decorative className="text-brand-500" />
                <span>{t('data_export.pending')}</span>
              </span>
            )}
            {current?.state === 'ready' && (
              <p>{t('data_export.ready', { date: when(current.expires_at) })}</p>
            )}
            {current?.state === 'downloaded' && (
              <p>{t('data_export.downloaded', { date: when(current.downloaded_at) })}</p>
            )}
            {current?.state === 'expired' && (
              <p>{t('data_export.expired', { date: when(current.expires_at) })}</p>
            )}
            {waiting && current?.state !== 'pending' && (
              <p className="mt-1 text-slate-600">
                {t('data_export.next_request', { date: when(nextAt) })}
              </p>
            )}
          </div>
          {current?.state === 'failed' && <FormError message="data_export.failed" />}
          <FormError message={refusal} />
          {mayAsk && (
            <Button loading={request.isPending} onClick={() => request.mutate()}>
              {current?.state === 'failed' ? t('data_export.try_again') : t('data_export.request')}
            </Button>
          )}
        </div>
      )}
    </Panel>
  );
}
