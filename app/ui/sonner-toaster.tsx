import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Toaster } from 'sonner';

/** Sonner's toaster, loaded with the first toast (toast.tsx): it is not in the first bundle. */
export function SonnerToaster({ onMounted }: { onMounted: () => void }) {
  const { t } = useTranslation();
  useEffect(onMounted, [onMounted]);
  return (
    <Toaster
      // Below, not over the header: a toast must not cover the account menu it follows.
      position="bottom-right"
      richColors
      closeButton
      containerAriaLabel={t('ui.toast.region')}
      toastOptions={{ closeButtonAriaLabel: t('ui.toast.close') }}
    />
  );
}
