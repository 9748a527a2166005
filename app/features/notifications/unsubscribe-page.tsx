import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { unsubscribeLinkEndpoints as e } from '#shared/contracts/notifications.ts';
import { failureMessage } from '../../api/api-error.ts';
import { call } from '../../api/client.ts';
import { QueryProvider } from '../../api/query-provider.tsx';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { LoadingBlock } from '../../ui/spinner.tsx';

/**
 * The page a list mail's visible unsubscribe link opens. Opening it changes nothing (mail
 * scanners follow links); the button does, without signing in: the link is the credential.
 */
export function UnsubscribePage() {
  return (
    <QueryProvider>
      <Unsubscribe />
    </QueryProvider>
  );
}

function Unsubscribe() {
  const { t } = useTranslation();
  const subscriberUuid = useParams().subscriberUuid ?? '';
  const link = useQuery({
    queryKey: ['notifications', 'link', subscriberUuid],
    queryFn: ({ signal }) => call(e.view, { params: { subscriberUuid } }, { signal }),
    // Asked anew on each visit: a link used a moment ago must not be offered again.
    gcTime: 0,
  });
  const leave = useMutation({
    mutationFn: () => call(e.oneClick, { params: { subscriberUuid } }),
  });
  return (
    <main className="mx-auto w-full max-w-lg px-4 py-16 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
        {t('notifications.link.title')}
      </h1>
      <div className="mt-6" aria-live="polite">
        {link.isPending ? (
          <LoadingBlock />
        ) : link.isError ? (
          <FormError message={failureMessage(link.error)} />
        ) : leave.isSuccess ? (
          <p className="text-slate-700" role="status">
            {t('notifications.link.done', { name: link.data.list_name ?? '' })}
          </p>
        ) : link.data.list_name === null ? (
          <p className="text-slate-700">{t('notifications.link.unknown')}</p>
        ) : (
          <div className="flex flex-col items-start gap-4">
            <p className="text-slate-700">
              {t('notifications.link.question', { name: link.data.list_name })}
            </p>
            {leave.isError && <FormError message={failureMessage(leave.error)} />}
            <Button loading={leave.isPending} onClick={() => leave.mutate()}>
              {t('notifications.link.button')}
            </Button>
          </div>
        )}
      </div>
    </main>
  );
}
