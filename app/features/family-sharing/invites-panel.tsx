import { useTranslation } from 'react-i18next';
import {
  familySharingEndpoints as e,
  type FamilyInvite,
  type FamilySharing,
} from '#shared/contracts/family-sharing.ts';
import { personName } from '#shared/family/person-name.ts';
import { call } from '../../api/client.ts';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { Panel } from '../../ui/panel.tsx';
import { notify } from '../../ui/toast.tsx';
import { useBusyAction } from '../../ui/use-busy-action.ts';
import { useLang } from '../auth/use-lang.ts';
import { formatFamilyDate, useApplyFamily } from './family-api.ts';

/**
 * §4 an invitee: the invites to their address, to accept or decline. Before accepting, a
 * customer whose own plan renews is told it will stop renewing (never charged twice).
 */
export function InvitesPanel({
  family,
  announce,
}: {
  family: FamilySharing;
  announce: (text: string) => void;
}) {
  const { t } = useTranslation();
  const open = family.invites.filter((invite) => !invite.declined_at && !invite.expired_at);
  if (open.length === 0) return null;
  return (
    <Panel id="family-invites" title={t('family.invitee.title')}>
      {family.own_plan_renews && <OwnPlanNotice />}
      <ul className="divide-y divide-slate-100" data-testid="family-invites">
        {open.map((invite) => (
          <InviteRow key={invite.invite_id} invite={invite} announce={announce} />
        ))}
      </ul>
    </Panel>
  );
}

/** What accepting does to the caller's own renewing plan, said before they accept. */
export function OwnPlanNotice() {
  const { t } = useTranslation();
  return (
    <p
      className="mb-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      data-testid="own-plan-notice"
    >
      {t('family.invitee.own_plan_notice')}
    </p>
  );
}

function InviteRow({
  invite,
  announce,
}: {
  invite: FamilyInvite;
  announce: (text: string) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const apply = useApplyFamily();
  const { busy, run } = useBusyAction<'accept'>();
  const owner = personName(invite.owner);
  const body = { invite_id: invite.invite_id };

  const accept = () =>
    run('accept', async () => {
      await apply(call(e.accept, { body }));
      notify.success('family.invitee.accepted', { values: { owner } });
      announce(t('family.invitee.accepted', { owner }));
    });

  const decline = () =>
    confirm({
      title: t('family.invitee.decline_title'),
      text: t('family.invitee.decline_text', { owner }),
      icon: 'warning',
      actionName: 'family-decline',
      yes: { label: t('family.invitee.decline') },
      onConfirm: async () => {
        await apply(call(e.decline, { body }));
        notify.success('family.invitee.declined');
        announce(t('family.invitee.declined'));
      },
    });

  return (
    <li
      className="flex flex-wrap items-center justify-between gap-3 py-3"
      data-testid="family-invite"
    >
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900">{t('family.invitee.from', { owner })}</p>
        <p className="mt-0.5 text-xs text-slate-500">
          {t('family.invitee.expires', { date: formatFamilyDate(invite.expires_at, lang) })}
        </p>
      </div>
      <div className="flex gap-2">
        <Button loading={busy === 'accept'} onClick={accept}>
          {t('family.invitee.accept')}
        </Button>
        <Button variant="secondary" onClick={decline}>
          {t('family.invitee.decline')}
        </Button>
      </div>
    </li>
  );
}
