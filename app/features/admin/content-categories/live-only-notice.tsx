import { useTranslation } from 'react-i18next';
import { CONTENT_MESSAGES } from '#shared/contracts/admin/content.ts';

/**
 * Said to staff who may not publish, above the category screens: a category has no draft,
 * so its names, addresses and order are live once saved, and only someone who may publish
 * changes them (the server refuses the rest).
 */
export function LiveOnlyNotice({ mayPublish }: { mayPublish: boolean | undefined }) {
  const { t } = useTranslation();
  if (mayPublish !== false) return null;
  return (
    <p
      role="note"
      className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      {t(CONTENT_MESSAGES.liveSettingsNotAllowed)}
    </p>
  );
}
