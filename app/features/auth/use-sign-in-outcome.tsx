import { type ReactNode, useState } from 'react';
import type { SignInResponse } from '#shared/contracts/auth.ts';
import { TwoFactorStep } from './two-factor-step.tsx';
import { useFinishSignIn } from './use-finish-sign-in.ts';

/**
 * What a sign-in answered (password or social): the user, signed in and sent on; or §4
 * code 102, whose second step then replaces the screen until a code is accepted or the
 * user starts again (with `onRestart`'s message, if any, shown on the first step).
 */
export function useSignInOutcome(onRestart: (message: string | undefined) => void): {
  onOutcome: (outcome: SignInResponse) => Promise<void>;
  secondStep: ReactNode;
} {
  const finishSignIn = useFinishSignIn();
  const [challenge, setChallenge] = useState<string>();
  const onOutcome = async (outcome: SignInResponse) => {
    if ('user' in outcome) await finishSignIn(outcome.user);
    else setChallenge(outcome.challenge);
  };
  const secondStep = challenge ? (
    <TwoFactorStep
      challenge={challenge}
      onSignedIn={finishSignIn}
      onRestart={(message) => {
        setChallenge(undefined);
        onRestart(message);
      }}
    />
  ) : null;
  return { onOutcome, secondStep };
}
