import type { ScreenMap } from '../../routes/screens.ts';
import { ReactivatePage } from '../account/reactivate-page.tsx';
import { ForgotPasswordPage } from '../auth/forgot-password-page.tsx';
import { OAuthCallbackPage } from '../auth/oauth-callback-page.tsx';
import { ResetPasswordPage } from '../auth/reset-password-page.tsx';
import { SetPasswordPage } from '../auth/set-password-page.tsx';
import { SignInPage } from '../auth/sign-in-page.tsx';
import { SignUpPage } from '../auth/sign-up-page.tsx';
import { VerifyEmailPage } from '../auth/verify-email-page.tsx';

// Screens of the public area by route name (app/routes/route-table.ts). Routes not listed here
// show the "not available yet" screen until their issue lands.
export const screens: ScreenMap = {
  signin: SignInPage,
  signup: SignUpPage,
  'password.forgot': ForgotPasswordPage,
  'password.reset': ResetPasswordPage,
  'email.verify': VerifyEmailPage,
  'password.set': SetPasswordPage,
  'oauth.callback': OAuthCallbackPage,
  reactivate: ReactivatePage,
  'reactivate-account': ReactivatePage,
};
