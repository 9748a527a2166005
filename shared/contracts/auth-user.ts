import { z } from 'zod';
import { ROLES } from '../roles.ts';

// §3 User as the browser sees it (`POST /users/get-auth-user` on the account and dashboard
// bases). Field names are the spec's; the server's presenter maps table columns onto them.
export const authUser = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  username: z.string(),
  email: z.string(),
  /** A new address waiting for confirmation (§4 e-mail change). */
  email_tmp: z.string().nullable(),
  /** Path of the avatar on the site origin. */
  photo: z.string().nullable(),
  /** The e-mail address is verified. */
  activated: z.boolean(),
  /** Set while the account is deactivated (§4): the time it will be deleted. */
  delete_at: z.string().nullable(),
  default_source: z.string().nullable(),
  two_factor_authentication: z.boolean(),
  two_factor_authentication_confirmed: z.boolean(),
  country_id: z.number().int().nullable(),
  users_billing_address: z.record(z.string(), z.string()).nullable(),
  subscription_id: z.number().int().nullable(),
  role: z.enum(ROLES),
  /**
   * Not in §3: false for an account made through Google or Apple that never set a password,
   * so the security page offers a link to set one instead of asking for the current one.
   */
  has_password: z.boolean(),
});
export type AuthUser = z.infer<typeof authUser>;

export const authUserResponse = z.object({ user: authUser });
export type AuthUserResponse = z.infer<typeof authUserResponse>;
