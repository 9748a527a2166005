import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { type PluralForms, pluralKey } from '../../i18n/plural.ts';
import { useRoutePath } from '../../layout/route-link.tsx';
import { copyText } from '../../lib/clipboard.ts';
import { Button } from '../../ui/button.tsx';
import { Panel } from '../../ui/panel.tsx';
import { notify } from '../../ui/toast.tsx';
import { useLang } from '../auth/use-lang.ts';
import { CardError, CardSkeleton } from './card-states.tsx';
import { useReferralView } from './dashboard-api.ts';

const REFERRALS: PluralForms = {
  one: 'dashboard.referral.referrals.one',
  few: 'dashboard.referral.referrals.few',
  many: 'dashboard.referral.referrals.many',
  other: 'dashboard.referral.referrals.other',
};

const BONUS_DAYS: PluralForms = {
  one: 'dashboard.referral.bonus_days.one',
  few: 'dashboard.referral.bonus_days.few',
  many: 'dashboard.referral.bonus_days.many',
  other: 'dashboard.referral.bonus_days.other',
};

async function copy(link: string) {
  // No clipboard (an insecure page, a refused permission): the link stays selectable.
  if (await copyText(link)) notify.success('dashboard.referral.copied');
  else notify.danger('dashboard.referral.copy_failed');
}

/** §1 referral program: the customer's link /{lang}/r/{code}, referrals and bonus days left. */
export function ReferralCard() {
  const { t } = useTranslation();
  const referral = useReferralView();
  return (
    <Panel
      id="dashboard-referral"
      title={t('dashboard.referral.title')}
      description={t('dashboard.referral.text')}
    >
      {referral.isPending ? (
        <CardSkeleton lines={2} />
      ) : referral.isError ? (
        <CardError error={referral.error} onRetry={() => referral.refetch()} />
      ) : (
        <Referral
          code={referral.data.code}
          referrals={referral.data.referrals_count}
          bonusDays={referral.data.bonus_days_left}
        />
      )}
    </Panel>
  );
}

function Referral({
  code,
  referrals,
  bonusDays,
}: {
  code: string;
  referrals: number;
  bonusDays: number;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const inputId = useId();
  const link = `${window.location.origin}${useRoutePath('referral', { id: code })}`;
  return (
    <div>
      <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
        {t('dashboard.referral.link_label')}
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          readOnly
          value={link}
          data-testid="dashboard-referral-link"
          onFocus={(event) => event.currentTarget.select()}
          className="min-h-10 w-full min-w-0 rounded-lg border border-[#dfe1e6] bg-slate-50 px-3 text-sm text-slate-800"
        />
        <Button variant="secondary" className="shrink-0" onClick={() => copy(link)}>
          {t('dashboard.referral.copy')}
        </Button>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-4 text-sm" aria-live="polite">
        <div>
          <dt className="text-slate-500">{t('dashboard.referral.referrals_label')}</dt>
          <dd className="mt-0.5 font-semibold text-slate-900" data-testid="dashboard-referrals">
            {t(pluralKey(REFERRALS, referrals, lang), { n: referrals })}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('dashboard.referral.bonus_days_label')}</dt>
          <dd className="mt-0.5 font-semibold text-slate-900" data-testid="dashboard-bonus-days">
            {t(pluralKey(BONUS_DAYS, bonusDays, lang), { n: bonusDays })}
          </dd>
        </div>
      </dl>
    </div>
  );
}
