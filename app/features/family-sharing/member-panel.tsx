import { useTranslation } from 'react-i18next';
import {
  familySharingEndpoints as e,
  type FamilySharing,
} from '#shared/contracts/family-sharing.ts';
import { personName } from '#shared/family/person-name.ts';
import { call } from '../../api/client.ts';
import { LinkButton } from '../../layout/link-button.tsx';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { Panel } from '../../ui/panel.tsx';
import { notify } from '../../ui/toast.tsx';
import { useLang } from '../auth/use-lang.ts';
import { formatFamilyDate, useApplyFamily } from './family-api.ts';

/** §4 a member: who shares with them, until when, and leaving (after a confirmation). */
export function MemberPanel({
  family,
  announce,
}: {
  family: FamilySharing;
  announce: (text: string) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const apply = useApplyFamily();
  const owner = personName(family.owner);
  const until = family.access_until;
  const active = until === null || new Date(until) > new Date();

  const leave = () =>
    confirm({
      title: t('family.member.leave_title'),
      text: t('family.member.leave_text', { owner }),
      icon: 'danger',
      actionName: 'family-leave',
      yes: { label: t('family.member.leave'), variant: 'danger' },
      onConfirm: async () => {
        await apply(call(e.leave));
        notify.success('family.member.left');
        announce(t('family.member.left'));
      },
    });

  return (
    <Panel
      id="family-membership"
      title={t('family.member.title')}
      actions={
        <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={leave}>
          {t('family.member.leave')}
        </Button>
      }
    >
      <p className="text-sm text-slate-800" data-testid="family-shared-by">
        {t('family.member.shared_by', { owner })}
      </p>
      {family.owner && owner !== family.owner.email && (
        <p className="text-xs break-all text-slate-500">{family.owner.email}</p>
      )}
      <p
        className={`mt-3 text-sm font-medium ${active ? 'text-emerald-700' : 'text-amber-800'}`}
        data-testid="family-access"
        data-active={active}
      >
        {active
          ? until
            ? t('family.member.access_until', { date: formatFamilyDate(until, lang) })
            : t('family.member.access')
          : t('family.member.access_ended')}
      </p>
      {!active && (
        <div className="mt-3">
          <LinkButton name="billing.order2" variant="primary">
            {t('family.order_own_plan')}
          </LinkButton>
        </div>
      )}
    </Panel>
  );
}
