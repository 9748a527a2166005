import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  familySharingEndpoints as e,
  type FamilySharing,
  type FamilyUser,
  familyInviteRequest,
} from '#shared/contracts/family-sharing.ts';
import { personName } from '#shared/family/person-name.ts';
import { call } from '../../api/client.ts';
import { LinkButton } from '../../layout/link-button.tsx';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { FormError } from '../../ui/form-field.tsx';
import { Panel } from '../../ui/panel.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { notify } from '../../ui/toast.tsx';
import { useBusyAction } from '../../ui/use-busy-action.ts';
import { useLang } from '../auth/use-lang.ts';
import { formatFamilyDate, useApplyFamily } from './family-api.ts';

/** §4 the owner's group: seats, members and invites with their state, and the invite form. */
export function OwnerPanel({
  family,
  announce,
}: {
  family: FamilySharing;
  announce: (text: string) => void;
}) {
  const { t } = useTranslation();
  const sharing = family.seats > 0;
  const full = family.seats_used >= family.seats;
  return (
    <>
      <Panel
        id="family-members"
        title={t('family.owner.title')}
        description={
          sharing
            ? t('family.owner.seats', { used: family.seats_used, total: family.seats })
            : undefined
        }
      >
        {!sharing && (
          <div
            role="alert"
            className="mb-4 flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
          >
            <p>{t('family.owner.plan_ended')}</p>
            <div>
              <LinkButton name="billing.order2" variant="primary">
                {t('family.order_family_plan')}
              </LinkButton>
            </div>
          </div>
        )}
        <ul className="divide-y divide-slate-100" data-testid="family-users">
          {family.users.map((user) => (
            <UserRow key={user.user_id} user={user} announce={announce} />
          ))}
        </ul>
      </Panel>
      {sharing && <InvitePanel full={full} announce={announce} />}
    </>
  );
}

function stateOf(user: FamilyUser): 'owner' | 'member' | 'declined' | 'expired' | 'invited' {
  if (user.owner) return 'owner';
  if (user.accepted_at) return 'member';
  if (user.declined_at) return 'declined';
  if (user.expired_at) return 'expired';
  return 'invited';
}

const BADGES = {
  owner: 'bg-brand-50 text-brand-700',
  member: 'bg-emerald-50 text-emerald-700',
  invited: 'bg-sky-50 text-sky-700',
  declined: 'bg-slate-100 text-slate-700',
  expired: 'bg-amber-50 text-amber-800',
} as const;

function UserRow({ user, announce }: { user: FamilyUser; announce: (text: string) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const apply = useApplyFamily();
  const { busy, run } = useBusyAction<'resend'>();
  const state = stateOf(user);
  const name = personName(user.user, user.email);

  const resend = () =>
    run('resend', async () => {
      await apply(call(e.resend, { body: { user_id: user.user_id } }));
      notify.success('family.owner.resent', { values: { email: user.email } });
      announce(t('family.owner.resent', { email: user.email }));
    });

  const remove = () =>
    confirm({
      title: t(state === 'member' ? 'family.owner.remove_title' : 'family.owner.withdraw_title'),
      text: t(state === 'member' ? 'family.owner.remove_text' : 'family.owner.withdraw_text', {
        name,
      }),
      icon: 'danger',
      actionName: 'family-remove',
      yes: {
        label: t(state === 'member' ? 'family.owner.remove' : 'family.owner.withdraw'),
        variant: 'danger',
      },
      onConfirm: async () => {
        await apply(call(e.remove, { body: { user_id: user.user_id } }));
        const done = t(state === 'member' ? 'family.owner.removed' : 'family.owner.withdrawn', {
          name,
        });
        notify.success(state === 'member' ? 'family.owner.removed' : 'family.owner.withdrawn', {
          values: { name },
        });
        announce(done);
      },
    });

  return (
    <li
      className="flex flex-wrap items-center justify-between gap-3 py-3"
      data-testid="family-user"
      data-state={state}
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium break-all text-slate-900">
          {name}
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${BADGES[state]}`}>
            {t(`family.state.${state}`)}
          </span>
        </p>
        {name !== user.email && <p className="text-xs break-all text-slate-500">{user.email}</p>}
        <p className="mt-0.5 text-xs text-slate-500">
          {state === 'member' && user.accepted_at
            ? t('family.owner.member_since', { date: formatFamilyDate(user.accepted_at, lang) })
            : state === 'invited' && user.invite_expires_at
              ? t('family.owner.invite_expires', {
                  date: formatFamilyDate(user.invite_expires_at, lang),
                })
              : state === 'declined' && user.declined_at
                ? t('family.owner.declined_on', { date: formatFamilyDate(user.declined_at, lang) })
                : state === 'expired' && user.expired_at
                  ? t('family.owner.expired_on', { date: formatFamilyDate(user.expired_at, lang) })
                  : null}
        </p>
      </div>
      {!user.owner && (
        <div className="flex gap-2">
          {state !== 'member' && (
            <Button
              variant="secondary"
              loading={busy === 'resend'}
              onClick={resend}
              aria-label={t('family.owner.resend_to', { email: user.email })}
            >
              {t('family.owner.resend')}
            </Button>
          )}
          <Button
            variant="ghost"
            className="text-red-700 hover:bg-red-50"
            onClick={remove}
            aria-label={t(
              state === 'member' ? 'family.owner.remove_who' : 'family.owner.withdraw_who',
              { name },
            )}
          >
            {t(state === 'member' ? 'family.owner.remove' : 'family.owner.withdraw')}
          </Button>
        </div>
      )}
    </li>
  );
}

function InvitePanel({ full, announce }: { full: boolean; announce: (text: string) => void }) {
  const { t } = useTranslation();
  const apply = useApplyFamily();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(familyInviteRequest), defaultValues: { email: '' } });

  const submit = handleSubmit(async ({ email }) => {
    setFormError(undefined);
    try {
      await apply(call(e.invite, { body: { email } }));
      reset({ email: '' });
      notify.success('family.invite.sent', { values: { email } });
      announce(t('family.invite.sent', { email }));
    } catch (error) {
      // The typed address stays in the field, its error under it.
      setFormError(applyApiErrors(error, setError, ['email']));
    }
  });

  return (
    <Panel
      id="family-invite"
      title={t('family.invite.title')}
      description={full ? t('family.invite.full') : t('family.invite.text')}
    >
      <form
        noValidate
        onSubmit={submit}
        className="flex max-w-md flex-col gap-3"
        data-testid="family-invite-form"
      >
        <TextInput
          label={t('family.invite.email')}
          type="email"
          autoComplete="off"
          required
          {...register('email')}
          error={errors.email?.message}
        />
        <FormError message={formError} />
        <div>
          <Button type="submit" loading={isSubmitting}>
            {t('family.invite.send')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
