import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DevicesResponse, VpnUsage } from '#shared/contracts/vpn.ts';
import { LinkButton } from '../../layout/link-button.tsx';
import { useAppConfig } from '../../lib/app-config-context.ts';
import { useLang } from '../auth/use-lang.ts';
import { formatVpnDate } from './vpn-format.ts';

const TONES = {
  warning: 'border-amber-300 bg-amber-50 text-amber-950',
  danger: 'border-red-300 bg-red-50 text-red-900',
} as const;

/** A notice the customer must not miss: a sign and a title, never the colour alone. */
export function Notice({
  tone,
  title,
  children,
  action,
  testId,
}: {
  tone: keyof typeof TONES;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div
      className={`flex flex-col gap-3 rounded-xl border p-4 text-sm sm:flex-row sm:items-start ${TONES[tone]}`}
      data-testid={testId}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        className="hidden size-5 shrink-0 sm:block"
      >
        <path d="M12 3l10 18H2zm0 7v5m0 3h.01" />
      </svg>
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{title}</p>
        {children !== undefined && <div className="mt-1">{children}</div>}
      </div>
      {action !== undefined && <div className="shrink-0">{action}</div>}
    </div>
  );
}

/** The ledger gives no access, or staff blocked the account: devices cannot connect. */
export function AccessNotice({ access }: { access: DevicesResponse['access'] }) {
  const { t } = useTranslation();
  const { features } = useAppConfig();
  if (access.blocked) {
    return (
      <Notice tone="danger" title={t('vpn.access.blocked_title')} testId="vpn-blocked">
        {t('vpn.access.blocked_text')}
      </Notice>
    );
  }
  if (access.active) return null;
  return (
    <Notice
      tone="warning"
      title={t('vpn.access.none_title')}
      testId="vpn-no-access"
      action={
        features.includes('billing') && (
          <LinkButton name="billing.order2" variant="primary">
            {t('vpn.access.order')}
          </LinkButton>
        )
      }
    >
      {t('vpn.access.none_text')}
    </Notice>
  );
}

/** The period's traffic limit is reached: every device waits for the reset. */
export function LimitNotice({ usage }: { usage: VpnUsage }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!usage.limit_reached) return null;
  return (
    <Notice
      tone="danger"
      testId="vpn-limit-reached"
      title={t('vpn.usage.limit_reached', { date: formatVpnDate(usage.period_end, lang) })}
    >
      {t('vpn.usage.limit_reached_text')}
    </Notice>
  );
}
