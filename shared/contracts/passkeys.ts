import { z } from 'zod';
import { passwordConfirmationSchema } from '../validation/password.ts';
import { recordIdNumber } from '../validation/record-id.ts';
import { requiredString } from '../validation/required.ts';
import { passwordConfirmation } from './account.ts';
import { successResponse } from './auth.ts';
import { authUserResponse } from './auth-user.ts';
import { endpoint, ownAccountEndpoint } from './endpoint.ts';

// Passkeys (WebAuthn): a person adds them on the security page after their password, and
// signs in with one instead of a password and a second factor. A ceremony is two calls:
// options (the challenge, remembered by the server under an httpOnly cookie for five
// minutes, answerable once), then verify with what the browser's authenticator answered.
// The options and credentials are WebAuthn's own JSON shapes (W3C WebAuthn L3, "JSON
// serialization"), which @simplewebauthn makes on the server and reads in the browser.

/** Message keys these calls answer with (passkeys.json). */
export const PASSKEY_MESSAGES = {
  /** The ceremony's challenge is unknown, used, expired or another person's: start again. */
  expired: 'passkeys.errors.expired',
  /** What the authenticator answered does not verify: altered, or for another site. */
  invalid: 'passkeys.errors.invalid',
  /** The signature counter did not go forward: the key may have been copied. */
  counter: 'passkeys.errors.counter',
  /** No account has this passkey (removed here, still on the device). */
  unknown: 'passkeys.errors.unknown',
  alreadyAdded: 'passkeys.errors.already_added',
  tooMany: 'passkeys.errors.too_many',
  notFound: 'passkeys.errors.not_found',
  /** Passkeys are off on this server (APP_URL without https). */
  unavailable: 'passkeys.errors.unavailable',
} as const;

/** At most this many passkeys an account; one per device and a few spares is plenty. */
export const MAX_PASSKEYS = 20;

export const passkeyName = requiredString(64);

/** A passkey as its owner sees it; the key itself never leaves the server. */
export const passkey = z
  .object({
    id: z.number().int(),
    name: z.string(),
    created_at: z.iso.datetime({ offset: true }),
    last_used_at: z.iso.datetime({ offset: true }).nullable(),
    /** Synced across the person's devices by their password manager or platform. */
    backed_up: z.boolean(),
  })
  .meta({ id: 'Passkey' });
export type Passkey = z.infer<typeof passkey>;

export const passkeysResponse = z.object({
  items: z.array(passkey),
  /** How many an account may have (MAX_PASSKEYS). */
  limit: z.number().int(),
});
export type PasskeysResponse = z.infer<typeof passkeysResponse>;

// --- WebAuthn's JSON shapes, as far as we send or read them -----------------------------

const invalid = { error: 'input_errors.field_is_invalid' };
/** Binary fields travel as base64url (padding tolerated); bounded so no one posts megabytes. */
const base64url = (max: number) =>
  z
    .string(invalid)
    .max(max, invalid)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, invalid);
/** A credential id is at most 1023 bytes (WebAuthn L3 §5.1). */
const credentialId = base64url(1400).min(1, invalid);
const transports = z.array(z.string(invalid).max(32, invalid)).max(8, invalid);

const credentialDescriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});

/** What `navigator.credentials.create()` takes, as JSON (PublicKeyCredentialCreationOptionsJSON). */
export const creationOptions = z.object({
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
    })
    .optional(),
  attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
  hints: z.array(z.enum(['hybrid', 'security-key', 'client-device'])).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

/** What `navigator.credentials.get()` takes, as JSON (PublicKeyCredentialRequestOptionsJSON). */
export const requestOptions = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
});

/** Extension outputs: read by no one here, kept so the browser's answer passes as it is. */
const extensionResults = z.record(z.string().max(64), z.unknown());

/** What the authenticator made (RegistrationResponseJSON). */
export const registrationCredential = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', invalid),
  authenticatorAttachment: z.enum(['platform', 'cross-platform'], invalid).optional(),
  clientExtensionResults: extensionResults,
  response: z.object({
    clientDataJSON: base64url(4096),
    // A `packed` or `tpm` attestation with its certificates; ours asks for `none`.
    attestationObject: base64url(16_384),
    authenticatorData: base64url(16_384).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number(invalid).int(invalid).optional(),
    publicKey: base64url(4096).optional(),
  }),
});
export type RegistrationCredential = z.infer<typeof registrationCredential>;

/** What the authenticator signed (AuthenticationResponseJSON). */
export const authenticationCredential = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', invalid),
  authenticatorAttachment: z.enum(['platform', 'cross-platform'], invalid).optional(),
  clientExtensionResults: extensionResults,
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(2048),
    userHandle: base64url(128).optional(),
  }),
});
export type AuthenticationCredential = z.infer<typeof authenticationCredential>;

// --- Requests ------------------------------------------------------------------------------

/** The credential the browser made, and a first name for it (the page suggests one). */
export const passkeyRegisterRequest = z.object({
  name: passkeyName,
  credential: registrationCredential,
});
export type PasskeyRegisterRequest = z.infer<typeof passkeyRegisterRequest>;

export const passkeyRenameRequest = z.object({ id: recordIdNumber, name: passkeyName });
export type PasskeyRenameRequest = z.infer<typeof passkeyRenameRequest>;

export const passkeyRemoveRequest = z.object({
  id: recordIdNumber,
  password: passwordConfirmationSchema,
});
export type PasskeyRemoveRequest = z.infer<typeof passkeyRemoveRequest>;

export const passkeySignInRequest = z.object({ credential: authenticationCredential });
export type PasskeySignInRequest = z.infer<typeof passkeySignInRequest>;

const tag = 'passkeys';

/** The own account's passkeys (customers and staff alike), and signing in with one. */
export const passkeyEndpoints = {
  list: ownAccountEndpoint({
    method: 'GET',
    path: '/passkeys/list',
    tag,
    summary: 'The passkeys of the signed-in account, newest first',
    response: passkeysResponse,
  }),
  /** After the password: the page then runs the browser's ceremony with these options. */
  registrationOptions: ownAccountEndpoint({
    method: 'POST',
    path: '/passkeys/registration/options',
    tag,
    summary: 'Start adding a passkey (after the password): the options for the browser',
    body: passwordConfirmation,
    response: z.object({ options: creationOptions }),
  }),
  register: ownAccountEndpoint({
    method: 'POST',
    path: '/passkeys/registration/verify',
    tag,
    summary: 'Finish adding a passkey with what the authenticator made',
    body: passkeyRegisterRequest,
    response: z.object({ passkey }),
    status: 201,
  }),
  rename: ownAccountEndpoint({
    method: 'POST',
    path: '/passkeys/rename',
    tag,
    summary: 'Rename a passkey',
    body: passkeyRenameRequest,
    response: z.object({ passkey }),
  }),
  remove: ownAccountEndpoint({
    method: 'POST',
    path: '/passkeys/delete',
    tag,
    summary: 'Remove a passkey (after the password); it no longer signs in',
    body: passkeyRemoveRequest,
    response: successResponse,
  }),
  /** No one is known yet: any passkey of this site may answer (the browser's autofill too). */
  signInOptions: endpoint({
    method: 'POST',
    base: 'public',
    path: '/passkeys/sign-in/options',
    access: 'public',
    tag,
    summary: 'Start a passkey sign-in: the options for the browser',
    response: z.object({ options: requestOptions }),
  }),
  /** A passkey with user verification is both factors: no two-factor code follows. */
  signIn: endpoint({
    method: 'POST',
    base: 'public',
    path: '/passkeys/sign-in/verify',
    access: 'public',
    tag,
    summary: 'Sign in with what the passkey signed; answers like a completed sign-in',
    body: passkeySignInRequest,
    response: authUserResponse,
  }),
};
