import { z } from 'zod';
import { TOKEN_PATTERN } from '../challenge.ts';
import { emailSchema } from '../validation/email.ts';
import { recordId } from '../validation/record-id.ts';
import { endpoint } from './endpoint.ts';

// §7 family sharing under /api/account/v1/family-sharing (§3 group, §4 rules). Every call
// answers the caller's group as they see it ("the response carries users"), so a screen
// replaces what it shows with the answer instead of fetching again.
//
// A seat is one family_members row: an invite to an address, which may have no account yet,
// until someone signed in as that address accepts it. `user_id` in resend and delete names
// the SEAT (`FamilyUser.user_id`), not an account id, so an owner can resend or withdraw an
// invite to an address without an account.

/** Message keys family sharing answers with, named once for the server and the screens. */
export const FAMILY_MESSAGES = {
  notEligible: 'family.errors.not_eligible',
  alreadyInGroup: 'family.errors.already_in_group',
  groupExists: 'family.errors.group_exists',
  notOwner: 'family.errors.not_owner',
  notMember: 'family.errors.not_member',
  seatsFull: 'family.errors.seats_full',
  inviteSelf: 'family.errors.invite_self',
  alreadyInvited: 'family.errors.already_invited',
  inviteeInGroup: 'family.errors.invitee_in_group',
  seatNotFound: 'family.errors.seat_not_found',
  inviteNotFound: 'family.errors.invite_not_found',
  inviteExpired: 'family.errors.invite_expired',
  inviteOtherAddress: 'family.errors.invite_other_address',
  verifyEmailFirst: 'family.errors.verify_email_first',
  ownerNoAccess: 'family.errors.owner_no_access',
  alreadyAccepted: 'family.errors.already_accepted',
} as const;

/** §4 an invite can be answered for seven days after it was sent (or last resent). */
export const FAMILY_INVITE_DAYS = 7;

const isoDate = z.iso.datetime({ offset: true });

/** The account behind a seat, as far as the other side of the family may see it. */
export const familyPerson = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string(),
  photo: z.string().nullable(),
});
export type FamilyPerson = z.infer<typeof familyPerson>;

/** §3 one user of a group: the owner, a member (accepted_at set) or an invitee. */
export const familyUser = z
  .object({
    /** The seat (for the owner: the owner's account id); what resend and delete name. */
    user_id: z.number().int(),
    owner: z.boolean(),
    accepted_at: isoDate.nullable(),
    declined_at: isoDate.nullable(),
    expired_at: isoDate.nullable(),
    /** When an open invite stops working (§4: seven days after sending). */
    invite_expires_at: isoDate.nullable(),
    email: z.string(),
    /** Null while no account has answered the invite. */
    user: familyPerson.nullable(),
  })
  .meta({ id: 'FamilyUser' });
export type FamilyUser = z.infer<typeof familyUser>;

/** An open invite to the caller's own address, which they may accept or decline. */
export const familyInvite = z.object({
  invite_id: z.number().int(),
  owner: familyPerson,
  invited_at: isoDate,
  expires_at: isoDate,
  declined_at: isoDate.nullable(),
  expired_at: isoDate.nullable(),
});
export type FamilyInvite = z.infer<typeof familyInvite>;

export const FAMILY_ROLES = ['owner', 'member', 'invitee', 'none'] as const;
export type FamilyRole = (typeof FAMILY_ROLES)[number];

/**
 * The caller's family sharing:
 * - `owner`: their group; `users` lists the owner first, then members and invites.
 * - `member`: the group they belong to (`owner` shares with them).
 * - `invitee`: no group yet, `invites` to their address to answer.
 * - `none`: no group and no open invite; `can_create` when their own plan has seats.
 */
export const familySharing = z
  .object({
    role: z.enum(FAMILY_ROLES),
    group_id: z.number().int().nullable(),
    /** Seats of the owner's plan (members and open invites count; the owner does not). */
    seats: z.number().int(),
    seats_used: z.number().int(),
    can_create: z.boolean(),
    owner: familyPerson.nullable(),
    users: z.array(familyUser),
    invites: z.array(familyInvite),
    /**
     * For a member: when their family access ends as far as is known now (the end of the
     * owner's paid period); null when it follows a renewing plan.
     */
    access_until: isoDate.nullable(),
    /**
     * The caller's own plan renews and would be charged beside family access: accepting
     * stops its renewal at the end of the paid period (the screen says so first).
     */
    own_plan_renews: z.boolean(),
  })
  .meta({ id: 'FamilySharing' });
export type FamilySharing = z.infer<typeof familySharing>;

export const familySharingResponse = z.object({ familySharing });
export type FamilySharingResponse = z.infer<typeof familySharingResponse>;

export const familyInviteRequest = z.object({ email: emailSchema });
export type FamilyInviteRequest = z.infer<typeof familyInviteRequest>;

export const familySeatRequest = z.object({ user_id: recordId });
export type FamilySeatRequest = z.infer<typeof familySeatRequest>;

/**
 * Answering an invite: from the mailed link (`token`, which also proves the address is the
 * caller's), or from the family page (`invite_id` of one of `invites`; the caller's address
 * must then be verified). Neither: the newest open invite to the caller's address.
 */
export const familyAnswerRequest = z
  .object({
    token: z.string().regex(TOKEN_PATTERN, 'input_errors.field_is_invalid').optional(),
    invite_id: recordId.optional(),
  })
  .nullish();
export type FamilyAnswerRequest = z.infer<typeof familyAnswerRequest>;

const account = { base: 'account', access: 'active', tag: 'family-sharing' } as const;
const family = { feature: 'family_sharing', response: familySharingResponse } as const;

export const familySharingEndpoints = {
  view: endpoint({
    ...account,
    ...family,
    method: 'GET',
    path: '/family-sharing',
    summary: "The caller's family group, members and invites, or invites to their address",
  }),
  create: endpoint({
    ...account,
    ...family,
    method: 'POST',
    path: '/family-sharing/create',
    summary: 'Start a family group on a plan with family seats',
  }),
  leave: endpoint({
    ...account,
    ...family,
    method: 'POST',
    path: '/family-sharing/users/leave',
    summary: 'Leave the family group; family access ends now',
  }),
  remove: endpoint({
    ...account,
    ...family,
    method: 'POST',
    path: '/family-sharing/users/delete',
    summary: "Remove a member or withdraw an invite (the owner); the member's access ends now",
    body: familySeatRequest,
  }),
  invite: endpoint({
    ...account,
    ...family,
    method: 'POST',
    path: '/family-sharing/users/invites/invite',
    summary: 'Invite an e-mail address to a seat (the owner); the invite is mailed',
    body: familyInviteRequest,
  }),
  decline: endpoint({
    ...account,
    ...family,
    method: 'POST',
    path: '/family-sharing/invites/decline',
    summary: 'Decline an invite to the caller’s address',
    body: familyAnswerRequest,
  }),
  accept: endpoint({
    ...account,
    ...family,
    method: 'POST',
    path: '/family-sharing/invites/accept',
    summary: "Accept an invite to the caller's address; family access starts",
    body: familyAnswerRequest,
  }),
  resend: endpoint({
    ...account,
    ...family,
    method: 'POST',
    path: '/family-sharing/invites/resend',
    summary: 'Send an invite again (the owner): clears declined and expired, new link',
    body: familySeatRequest,
  }),
} as const;

/** React-query key of the caller's family sharing. */
export const FAMILY_SHARING_QUERY_KEY = ['family-sharing', 'view'] as const;
