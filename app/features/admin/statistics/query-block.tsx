import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../api/api-error.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';

/**
 * A statistics call's states: loading, failed (with a retry), or its answer, marked busy while
 * a newer range is on its way. Nothing at all while the range is wrong (the picker says why).
 */
export function QueryBlock<T>(props: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { query } = props;
  if (query.isError) {
    return (
      <EmptyState
        title={t('staff.kit.load_failed')}
        text={t(failureMessage(query.error))}
        action={<Button onClick={() => query.refetch()}>{t('staff.kit.retry')}</Button>}
      />
    );
  }
  if (query.data === undefined) {
    return query.fetchStatus === 'idle' ? null : <LoadingBlock />;
  }
  return (
    <div
      aria-busy={query.isFetching || undefined}
      className={`flex flex-col gap-6 ${query.isPlaceholderData ? 'opacity-60' : ''}`}
    >
      {props.children(query.data)}
    </div>
  );
}
