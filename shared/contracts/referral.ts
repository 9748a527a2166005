import { z } from 'zod';
import { requiredString } from '../validation/required.ts';
import { endpoint } from './endpoint.ts';

// §7 Referral program: a customer's link /{lang}/r/{code} brings a friend, who joins after
// signing up or in; both get bonus days when the friend's first payment succeeds (§1 flag
// `referral`).

/** Message keys the referral calls answer with, named once for the server and the app. */
export const REFERRAL_MESSAGES = {
  codeUnknown: 'referral.errors.code_unknown',
  ownCode: 'referral.errors.own_code',
  alreadyReferred: 'referral.errors.already_referred',
  alreadyPaid: 'referral.errors.already_paid',
} as const;

/** Codes are made by the server: letters and digits, short enough to read in a link. */
export const REFERRAL_CODE_MAX = 64;

export const referralJoinRequest = z.object({ token: requiredString(REFERRAL_CODE_MAX) });
export type ReferralJoinRequest = z.infer<typeof referralJoinRequest>;

export const referralView = z.object({
  /** Whole days of bonus access left (ceil), from the entitlement ledger. */
  bonus_days_left: z.number().int(),
  /** Customers who joined through this user's link. */
  referrals_count: z.number().int(),
  /** What goes into /{lang}/r/{code}. */
  code: z.string(),
  /** Days each side earns when a friend who joined makes their first payment. */
  bonus_days_per_friend: z.number().int(),
});
export type ReferralView = z.infer<typeof referralView>;

export const referralJoinResponse = z.object({ joined: z.literal(true) });
export type ReferralJoinResponse = z.infer<typeof referralJoinResponse>;

export const referralEndpoints = {
  join: endpoint({
    method: 'POST',
    base: 'public',
    path: '/referral-program/join',
    access: 'signed-in',
    tag: 'referral-program',
    summary: "Join the referral program through a friend's link",
    body: referralJoinRequest,
    response: referralJoinResponse,
    feature: 'referral',
  }),
  view: endpoint({
    method: 'GET',
    base: 'account',
    path: '/referral-program/view',
    access: 'signed-in',
    tag: 'referral-program',
    summary: "The user's referral link code, referrals and bonus days left",
    response: referralView,
    feature: 'referral',
  }),
} as const;
