import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { confirm } from '../../../ui/confirm.ts';

/**
 * While there are unsaved changes, leaving asks first: another screen or tab, another
 * query (a list's tab or currency), and closing or reloading the page (the browser's own
 * question, which cannot carry our words). `textKey` says what would be lost.
 */
export function useUnsavedGuard(dirty: boolean, textKey = 'staff.kit.leave.text'): void {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );

  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm({
      title: t('staff.kit.leave.title'),
      text: t(textKey),
      actionName: 'leave-unsaved',
      icon: 'warning',
      yes: { label: t('staff.kit.leave.yes'), variant: 'danger' },
      no: { label: t('staff.kit.leave.no') },
    }).then((leave) => {
      const current = blockerRef.current;
      if (current.state !== 'blocked') return;
      if (leave) current.proceed();
      else current.reset();
    });
  }, [blocker.state, t, textKey]);

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
}
