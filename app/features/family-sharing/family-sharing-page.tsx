import { type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  familySharingEndpoints as e,
  type FamilySharing,
} from '#shared/contracts/family-sharing.ts';
import { failureMessage } from '../../api/api-error.ts';
import { call } from '../../api/client.ts';
import { QueryProvider } from '../../api/query-provider.tsx';
import { LinkButton } from '../../layout/link-button.tsx';
import { Button } from '../../ui/button.tsx';
import { Panel } from '../../ui/panel.tsx';
import { notify } from '../../ui/toast.tsx';
import { useBusyAction } from '../../ui/use-busy-action.ts';
import { useApplyFamily, useFamilySharing } from './family-api.ts';
import { InvitesPanel } from './invites-panel.tsx';
import { MemberPanel } from './member-panel.tsx';
import { OwnerPanel } from './owner-panel.tsx';

/** §2 features.family-sharing: the page of an owner, a member, an invitee, or anyone else. */
export function FamilySharingPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('family.title')}</h1>
      <p className="mt-2 text-sm text-slate-600">{t('family.intro')}</p>
      <QueryProvider>
        <FamilyContent />
      </QueryProvider>
    </div>
  );
}

function FamilyContent() {
  const { t } = useTranslation();
  const family = useFamilySharing();
  // What the user's last action (or the other side's) changed, read out by screen readers.
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => setAnnouncement(text), []);

  let content: ReactNode;
  if (family.isPending) {
    content = (
      <Panel title={t('family.title')}>
        <div role="status" aria-busy="true" className="flex flex-col gap-3">
          <span className="sr-only">{t('family.loading')}</span>
          <div aria-hidden="true" className="h-4 w-full animate-pulse rounded bg-slate-200" />
          <div aria-hidden="true" className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
        </div>
      </Panel>
    );
  } else if (family.isError) {
    content = (
      <div
        role="alert"
        className="flex flex-col items-start gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800"
      >
        <p className="font-medium">{t('family.load_failed')}</p>
        <p>{t(failureMessage(family.error))}</p>
        <Button variant="secondary" onClick={() => family.refetch()}>
          {t('family.retry')}
        </Button>
      </div>
    );
  } else {
    content = <ByRole family={family.data.familySharing} announce={announce} />;
  }
  return (
    <div className="mt-6 flex flex-col gap-6" data-testid="family-page">
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {content}
    </div>
  );
}

function ByRole({ family, announce }: { family: FamilySharing; announce: (text: string) => void }) {
  switch (family.role) {
    case 'owner':
      return <OwnerPanel family={family} announce={announce} />;
    case 'member':
      return <MemberPanel family={family} announce={announce} />;
    case 'invitee':
      return (
        <>
          <InvitesPanel family={family} announce={announce} />
          {family.can_create && <StartPanel announce={announce} />}
        </>
      );
    default:
      return family.can_create ? <StartPanel announce={announce} /> : <AboutPanel />;
  }
}

/** An owner of a plan with seats who has not started sharing yet. */
function StartPanel({ announce }: { announce: (text: string) => void }) {
  const { t } = useTranslation();
  const apply = useApplyFamily();
  const { busy, run } = useBusyAction();
  const start = () =>
    run('run', async () => {
      await apply(call(e.create));
      notify.success('family.start.started');
      announce(t('family.start.started'));
    });
  return (
    <Panel
      id="family-start"
      title={t('family.start.title')}
      description={t('family.start.text')}
      actions={
        <Button loading={busy !== undefined} onClick={start}>
          {t('family.start.action')}
        </Button>
      }
    />
  );
}

/** Anyone else: what family sharing is, and the way to a family plan. */
function AboutPanel() {
  const { t } = useTranslation();
  return (
    <Panel id="family-about" title={t('family.about.title')} description={t('family.about.text')}>
      <ul className="mb-4 list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>{t('family.about.point_seats')}</li>
        <li>{t('family.about.point_accounts')}</li>
        <li>{t('family.about.point_invite')}</li>
      </ul>
      <LinkButton name="billing.order2" variant="primary">
        {t('family.order_family_plan')}
      </LinkButton>
    </Panel>
  );
}
