import { useTranslation } from 'react-i18next';
import { Panel } from '../../ui/panel.tsx';

/** WireGuard's own page of its apps; each platform's section is there. */
export const WIREGUARD_INSTALL_URL = 'https://www.wireguard.com/install/';

const PLATFORMS = [
  ['windows', 'vpn.apps.platforms.windows'],
  ['macos', 'vpn.apps.platforms.macos'],
  ['ios', 'vpn.apps.platforms.ios'],
  ['android', 'vpn.apps.platforms.android'],
  ['linux', 'vpn.apps.platforms.linux'],
] as const;

/**
 * The apps: ours do not exist yet, and the page says so rather than offering buttons that
 * lead nowhere. WireGuard's official apps read the configurations this page makes.
 */
export function AppsPanel() {
  const { t } = useTranslation();
  return (
    <Panel id="vpn-apps" title={t('vpn.apps.title')} description={t('vpn.apps.text')}>
      <ul className="flex flex-wrap gap-2" data-testid="vpn-apps">
        {PLATFORMS.map(([platform, label]) => (
          <li key={platform}>
            <a
              href={WIREGUARD_INSTALL_URL}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-10 items-center gap-2 rounded-lg border border-[#dfe1e6] bg-white px-4 text-sm font-medium text-slate-800 transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth={1.8}
                strokeLinecap="round"
                strokeLinejoin="round"
                className="size-4 text-brand-600"
              >
                <path d="M12 4v11m-5-5l5 5 5-5M5 20h14" />
              </svg>
              {t('vpn.apps.get', { platform: t(label) })}
            </a>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-slate-500">{t('vpn.apps.source')}</p>
    </Panel>
  );
}
