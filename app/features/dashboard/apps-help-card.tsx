import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../layout/link-button.tsx';
import { Panel } from '../../ui/panel.tsx';

/**
 * Download apps and help: as §2's user menu, download opens the download page (WireGuard's
 * apps and the customer's devices) and help points home (no help-center screen yet). Our
 * own apps do not exist yet, so the text names WireGuard's rather than promising ours.
 */
export function AppsHelpCard() {
  const { t } = useTranslation();
  return (
    <Panel id="dashboard-apps" title={t('dashboard.apps.title')}>
      <p className="text-sm text-slate-600">{t('vpn.dashboard.apps_text')}</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <LinkButton name="download">{t('dashboard.apps.download')}</LinkButton>
        <LinkButton name="home">{t('dashboard.apps.help')}</LinkButton>
      </div>
    </Panel>
  );
}
