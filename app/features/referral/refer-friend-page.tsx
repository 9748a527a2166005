import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReferralView } from '#shared/contracts/referral.ts';
import { failureMessage } from '../../api/api-error.ts';
import { QueryProvider } from '../../api/query-provider.tsx';
import { type PluralForms, pluralKey } from '../../i18n/plural.ts';
import { useRoutePath } from '../../layout/route-link.tsx';
import { copyText } from '../../lib/clipboard.ts';
import { Button } from '../../ui/button.tsx';
import { Panel } from '../../ui/panel.tsx';
import { useLang } from '../auth/use-lang.ts';
import { useReferralView } from './referral-api.ts';
import { shareLink } from './share-link.ts';

const REFERRALS: PluralForms = {
  one: 'referral.figures.referrals.one',
  few: 'referral.figures.referrals.few',
  many: 'referral.figures.referrals.many',
  other: 'referral.figures.referrals.other',
};

const BONUS_DAYS: PluralForms = {
  one: 'referral.figures.bonus_days.one',
  few: 'referral.figures.bonus_days.few',
  many: 'referral.figures.bonus_days.many',
  other: 'referral.figures.bonus_days.other',
};

/** §2 refer a friend: the customer's link to share, what it earns, and what it has earned. */
export function ReferFriendPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
        {t('referral.title')}
      </h1>
      <p className="mt-2 text-sm text-slate-600">{t('referral.intro')}</p>
      <QueryProvider>
        <div className="mt-6 flex flex-col gap-6">
          <ReferFriend />
          <HowItWorks />
        </div>
      </QueryProvider>
    </div>
  );
}

function ReferFriend() {
  const { t } = useTranslation();
  const referral = useReferralView();
  if (referral.isPending) {
    return (
      <Panel title={t('referral.link.title')}>
        <div role="status" aria-busy="true" className="flex flex-col gap-3">
          <span className="sr-only">{t('referral.loading')}</span>
          <div aria-hidden="true" className="h-10 w-full animate-pulse rounded-lg bg-slate-200" />
          <div aria-hidden="true" className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
        </div>
      </Panel>
    );
  }
  if (referral.isError) {
    return (
      <Panel title={t('referral.link.title')}>
        <div
          role="alert"
          className="flex flex-col items-start gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800"
        >
          <p className="font-medium">{t('referral.load_failed')}</p>
          <p>{t(failureMessage(referral.error))}</p>
          <Button variant="secondary" onClick={() => referral.refetch()}>
            {t('referral.retry')}
          </Button>
        </div>
      </Panel>
    );
  }
  return (
    <>
      <LinkPanel code={referral.data.code} />
      <FiguresPanel view={referral.data} />
    </>
  );
}

function LinkPanel({ code }: { code: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');
  const link = `${window.location.origin}${useRoutePath('referral', { id: code })}`;

  const copy = async () => {
    if (await copyText(link)) {
      setStatus(t('referral.link.copied'));
      return;
    }
    // No clipboard here: the link is selected for the user to copy themselves.
    input.current?.focus();
    input.current?.select();
    setStatus(t('referral.link.copy_manually'));
  };

  const share = async () => {
    const outcome = await shareLink({
      title: t('referral.share.title'),
      text: t('referral.share.text'),
      url: link,
    });
    if (outcome === 'shared') setStatus(t('referral.share.shared'));
  };

  return (
    <Panel
      id="referral-link"
      title={t('referral.link.title')}
      description={t('referral.link.text')}
    >
      <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
        {t('referral.link.label')}
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          ref={input}
          readOnly
          value={link}
          data-testid="referral-link"
          onFocus={(event) => event.currentTarget.select()}
          className="min-h-10 w-full min-w-0 rounded-lg border border-[#dfe1e6] bg-slate-50 px-3 text-sm text-slate-800"
        />
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" onClick={copy}>
            {t('referral.link.copy')}
          </Button>
          <Button onClick={share}>{t('referral.share.button')}</Button>
        </div>
      </div>
      <p role="status" aria-live="polite" className="mt-2 min-h-5 text-sm text-slate-600">
        {status}
      </p>
    </Panel>
  );
}

function FiguresPanel({ view }: { view: ReferralView }) {
  const { t } = useTranslation();
  const lang = useLang();
  const referrals = view.referrals_count;
  const days = view.bonus_days_left;
  const perFriend = view.bonus_days_per_friend;
  return (
    <Panel id="referral-figures" title={t('referral.figures.title')}>
      <dl className="grid grid-cols-2 gap-4 text-sm" aria-live="polite">
        <div>
          <dt className="text-slate-500">{t('referral.figures.referrals_label')}</dt>
          <dd className="mt-0.5 text-lg font-semibold text-slate-900" data-testid="referral-count">
            {t(pluralKey(REFERRALS, referrals, lang), { n: referrals })}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('referral.figures.bonus_days_label')}</dt>
          <dd
            className="mt-0.5 text-lg font-semibold text-slate-900"
            data-testid="referral-bonus-days"
          >
            {t(pluralKey(BONUS_DAYS, days, lang), { n: days })}
          </dd>
        </div>
        <div className="col-span-2">
          <dt className="text-slate-500">{t('referral.figures.per_friend_label')}</dt>
          <dd className="mt-0.5 text-slate-900" data-testid="referral-days-per-friend">
            {t(pluralKey(BONUS_DAYS, perFriend, lang), { n: perFriend })}
          </dd>
        </div>
      </dl>
      {referrals === 0 && (
        <p className="mt-4 text-sm text-slate-600">{t('referral.figures.empty')}</p>
      )}
    </Panel>
  );
}

function HowItWorks() {
  const { t } = useTranslation();
  return (
    <Panel id="referral-how" title={t('referral.how.title')}>
      <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
        <li>{t('referral.how.share')}</li>
        <li>{t('referral.how.join')}</li>
        <li>{t('referral.how.pay')}</li>
      </ol>
    </Panel>
  );
}
