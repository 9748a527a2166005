import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { CHALLENGE_PARAM, decodeChallenge } from '#shared/challenge.ts';
import {
  familySharingEndpoints as e,
  FAMILY_SHARING_QUERY_KEY,
  type FamilySharing,
} from '#shared/contracts/family-sharing.ts';
import { personName } from '#shared/family/person-name.ts';
import { failureMessage } from '../../api/api-error.ts';
import { call } from '../../api/client.ts';
import { QueryProvider } from '../../api/query-provider.tsx';
import { LinkButton } from '../../layout/link-button.tsx';
import { useRoutePath } from '../../layout/route-link.tsx';
import { useSession } from '../../session/session-store.ts';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { FormError } from '../../ui/form-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { AuthCard } from '../auth/auth-card.tsx';
import { useApplyFamily } from './family-api.ts';
import { OwnPlanNotice } from './invites-panel.tsx';

/**
 * §2 familysharing.invite.verify, the mailed link. The guard has checked its challenge (an
 * address and a token) and that a signed-in visitor is that address. A visitor signs in or
 * up first and comes back here with the challenge kept; then they accept or decline.
 */
export function InviteVerifyPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const challenge = params.get(CHALLENGE_PARAM) ?? '';
  const { email = '', token = '' } = decodeChallenge(challenge) ?? {};
  const signedIn = useSession((session) => session.user !== null);
  return (
    <AuthCard title={t('family.verify.title')} lead={t('family.verify.lead', { email })}>
      {signedIn ? (
        <QueryProvider>
          <Answer token={token} />
        </QueryProvider>
      ) : (
        <SignInFirst challenge={challenge} />
      )}
    </AuthCard>
  );
}

/** Sign in or up with the invited address; both come back here (§2 After login). */
function SignInFirst({ challenge }: { challenge: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const back = new URLSearchParams({
    continue: 'familysharing.invite.verify',
    path: pathname,
    [CHALLENGE_PARAM]: challenge,
  }).toString();
  const signin = `${useRoutePath('signin')}?${back}`;
  const signup = `${useRoutePath('signup')}?${back}`;
  return (
    <div className="flex flex-col gap-4" data-testid="family-verify-signin">
      <p className="text-sm text-slate-700">{t('family.verify.sign_in_first')}</p>
      <div className="flex flex-wrap gap-2">
        <a href={signup} className={buttonLink('primary')}>
          {t('family.verify.sign_up')}
        </a>
        <a href={signin} className={buttonLink('secondary')}>
          {t('family.verify.sign_in')}
        </a>
      </div>
    </div>
  );
}

const buttonLink = (variant: 'primary' | 'secondary') =>
  `inline-flex min-h-10 items-center justify-center rounded-lg px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 ${variant === 'primary' ? 'bg-brand-500 text-white hover:bg-brand-600' : 'border border-[#dfe1e6] bg-white text-slate-800 hover:bg-slate-50'}`;

function Answer({ token }: { token: string }) {
  const { t } = useTranslation();
  const apply = useApplyFamily();
  const family = useQuery({
    queryKey: FAMILY_SHARING_QUERY_KEY,
    queryFn: ({ signal }) => call(e.view, {}, { signal }),
  });
  const [busy, setBusy] = useState<'accept' | 'decline'>();
  const [failure, setFailure] = useState<string>();
  const [outcome, setOutcome] = useState<FamilySharing['role']>();

  const answer = async (which: 'accept' | 'decline') => {
    setBusy(which);
    setFailure(undefined);
    try {
      const next = await apply(
        call(which === 'accept' ? e.accept : e.decline, { body: { token } }),
      );
      setOutcome(which === 'accept' ? next.role : 'none');
    } catch (error) {
      setFailure(failureMessage(error));
    } finally {
      setBusy(undefined);
    }
  };
  const decline = () =>
    confirm({
      title: t('family.invitee.decline_title'),
      text: t('family.verify.decline_text'),
      icon: 'warning',
      actionName: 'family-decline',
      yes: { label: t('family.invitee.decline') },
      onConfirm: () => answer('decline'),
    });

  // Opened again after accepting (or a member already): nothing to answer.
  if (outcome === 'member' || (!outcome && family.data?.familySharing.role === 'member')) {
    const owner = personName(family.data?.familySharing.owner ?? null);
    return (
      <div role="status" className="flex flex-col gap-4" data-testid="family-verify-accepted">
        <p className="text-sm font-medium text-emerald-700">
          {t('family.verify.accepted', { owner })}
        </p>
        <div className="flex flex-wrap gap-2">
          <LinkButton name="dashboard" variant="primary">
            {t('family.verify.to_dashboard')}
          </LinkButton>
          <LinkButton name="features.family-sharing">{t('family.verify.to_family')}</LinkButton>
        </div>
      </div>
    );
  }
  if (outcome === 'none') {
    return (
      <div role="status" className="flex flex-col gap-4" data-testid="family-verify-declined">
        <p className="text-sm text-slate-700">{t('family.invitee.declined')}</p>
        <div>
          <LinkButton name="dashboard">{t('family.verify.to_dashboard')}</LinkButton>
        </div>
      </div>
    );
  }
  if (family.isPending) {
    return (
      <div role="status" className="flex items-center gap-3 text-sm text-slate-700">
        <Spinner decorative className="text-brand-500" />
        <span>{t('family.loading')}</span>
      </div>
    );
  }
  const renews = family.data?.familySharing.own_plan_renews ?? false;
  return (
    <div className="flex flex-col gap-4" data-testid="family-verify-answer">
      <p className="text-sm text-slate-700">{t('family.verify.what_you_get')}</p>
      {renews && <OwnPlanNotice />}
      <FormError message={failure} />
      <div className="flex flex-wrap gap-2">
        <Button
          loading={busy === 'accept'}
          disabled={busy !== undefined}
          onClick={() => answer('accept')}
        >
          {t('family.invitee.accept')}
        </Button>
        <Button variant="secondary" disabled={busy !== undefined} onClick={decline}>
          {t('family.invitee.decline')}
        </Button>
      </div>
    </div>
  );
}
