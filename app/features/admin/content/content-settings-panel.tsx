import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contentEndpoints } from '#shared/contracts/admin/content.ts';
import { hasPermission } from '#shared/permissions.ts';
import { call } from '../../../api/client.ts';
import { useSession } from '../../../session/session-store.ts';
import { notify, notifyRequestError } from '../../../ui/toast.tsx';
import { CONTENT_SETTINGS_KEY, useContentSettings } from './use-may-publish.ts';

/**
 * The content settings, for the admin only (an author never asks): whether authors may
 * publish, schedule and unpublish, or write drafts for an admin to publish.
 */
export function ContentSettingsPanel() {
  const role = useSession((session) => session.user?.role);
  if (!hasPermission(role, 'contentSettings')) return null;
  return <Settings />;
}

function Settings() {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const settings = useContentSettings();
  if (!settings.data) return null;
  const change = async (allowed: boolean) => {
    setSaving(true);
    try {
      const answer = await call(contentEndpoints.updateSettings, {
        body: { authors_can_publish: allowed },
      });
      queryClient.setQueryData(CONTENT_SETTINGS_KEY, answer);
      notify.success('staff_content.settings.saved');
    } catch (error) {
      notifyRequestError(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="flex items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <input
        id={id}
        type="checkbox"
        className="mt-1 size-4"
        checked={settings.data.authors_can_publish}
        disabled={saving}
        aria-describedby={`${id}-hint`}
        onChange={(event) => void change(event.target.checked)}
      />
      <div>
        <label htmlFor={id} className="font-medium text-slate-900">
          {t('staff_content.settings.authors_can_publish')}
        </label>
        <p id={`${id}-hint`} className="text-slate-600">
          {t('staff_content.settings.authors_can_publish_hint')}
        </p>
      </div>
    </div>
  );
}
