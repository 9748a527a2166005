import { useTranslation } from 'react-i18next';
import type { FamilySharing } from '#shared/contracts/family-sharing.ts';
import { personName } from '#shared/family/person-name.ts';
import { type PluralForms, pluralKey } from '../../i18n/plural.ts';
import { LinkButton } from '../../layout/link-button.tsx';
import { Panel } from '../../ui/panel.tsx';
import { useLang } from '../auth/use-lang.ts';
import { CardError, CardSkeleton } from './card-states.tsx';
import { useFamilySharing } from './dashboard-api.ts';

const MEMBERS: PluralForms = {
  one: 'dashboard.family.members.one',
  few: 'dashboard.family.members.few',
  many: 'dashboard.family.members.many',
  other: 'dashboard.family.members.other',
};

/** §4 family sharing as the customer stands in it: owner, member, invited, or neither. */
export function FamilyCard() {
  const { t } = useTranslation();
  const family = useFamilySharing();
  return (
    <Panel id="dashboard-family" title={t('dashboard.family.title')}>
      {family.isPending ? (
        <CardSkeleton lines={2} />
      ) : family.isError ? (
        <CardError error={family.error} onRetry={() => family.refetch()} />
      ) : (
        <Family family={family.data} />
      )}
    </Panel>
  );
}

function Family({ family }: { family: FamilySharing }) {
  const { t } = useTranslation();
  const lang = useLang();
  const members = family.users.filter((user) => !user.owner && user.accepted_at);
  const owner = family.owner ? personName(family.owner) : '';
  const firstInvite = family.invites[0];
  return (
    <div aria-live="polite" data-testid="dashboard-family">
      {family.role === 'owner' && (
        <>
          <p className="font-medium text-slate-900">
            {t(pluralKey(MEMBERS, members.length, lang), { n: members.length })}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {t('dashboard.family.seats', { used: family.seats_used, seats: family.seats })}
          </p>
          {members.length > 0 && (
            <ul className="mt-3 flex flex-col gap-1 text-sm text-slate-700">
              {members.map((member) => (
                <li key={member.user_id} className="break-words">
                  {member.user ? personName(member.user) : member.email}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {family.role === 'member' && (
        <p className="font-medium text-slate-900">{t('dashboard.family.member', { owner })}</p>
      )}
      {family.role === 'invitee' && firstInvite && (
        <p className="font-medium text-slate-900">
          {t('dashboard.family.invited', { owner: personName(firstInvite.owner) })}
        </p>
      )}
      {(family.role === 'none' || (family.role === 'invitee' && !firstInvite)) && (
        <p className="text-sm text-slate-600">
          {family.can_create ? t('dashboard.family.can_create') : t('dashboard.family.none')}
        </p>
      )}
      <LinkButton name="features.family-sharing" className="mt-4">
        {family.role === 'owner'
          ? t('dashboard.family.manage')
          : family.role === 'invitee'
            ? t('dashboard.family.answer')
            : t('dashboard.family.open')}
      </LinkButton>
    </div>
  );
}
