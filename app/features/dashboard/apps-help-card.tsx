import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../layout/link-button.tsx';
import { Panel } from '../../ui/panel.tsx';

/**
 * Download apps and help. §2's user menu points both at home (no download or help-center
 * screen exists for customers yet); the links follow it, so they move with the menu.
 */
export function AppsHelpCard() {
  const { t } = useTranslation();
  return (
    <Panel id="dashboard-apps" title={t('dashboard.apps.title')}>
      <p className="text-sm text-slate-600">{t('dashboard.apps.text')}</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <LinkButton name="home">{t('dashboard.apps.download')}</LinkButton>
        <LinkButton name="home">{t('dashboard.apps.help')}</LinkButton>
      </div>
    </Panel>
  );
}
