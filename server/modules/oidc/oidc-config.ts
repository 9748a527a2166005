import { eq } from 'drizzle-orm';
import type {
  Client,
  Configuration,
  interactionPolicy as InteractionPolicy,
  JWK,
  KoaContextWithOIDC,
} from 'oidc-provider';
import { interactionPath, OIDC_PREFIX, OIDC_SCOPES } from '#shared/contracts/oidc.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { sessionCookieName } from '../identity/auth-plugin.ts';
import { findSession } from '../identity/sessions.ts';
import { DrizzleAdapter } from './oidc-adapter.ts';
import { ClientAdapter, FIRST_PARTY } from './oidc-clients.ts';
import { providerPages } from './provider-pages.ts';

const HOUR = 3600;
const DAY = 24 * HOUR;

/** How long what the provider hands out lives, in seconds. */
export const OIDC_TTL = {
  AccessToken: HOUR,
  AuthorizationCode: 60,
  IdToken: HOUR,
  DeviceCode: 10 * 60,
  Interaction: HOUR,
  /** Rotated on every use: an app in use never meets this; one unused for a month signs in again. */
  RefreshToken: 30 * DAY,
  Session: 14 * DAY,
  Grant: 365 * DAY,
} as const;

/** The provider's own endpoints, below OIDC_PREFIX; `/device` is our page's entrance. */
export const OIDC_ROUTES = {
  authorization: `${OIDC_PREFIX}/auth`,
  token: `${OIDC_PREFIX}/token`,
  jwks: `${OIDC_PREFIX}/jwks`,
  userinfo: `${OIDC_PREFIX}/me`,
  revocation: `${OIDC_PREFIX}/token/revocation`,
  introspection: `${OIDC_PREFIX}/token/introspection`,
  end_session: `${OIDC_PREFIX}/session/end`,
  device_authorization: `${OIDC_PREFIX}/device/auth`,
  code_verification: '/device',
  pushed_authorization_request: `${OIDC_PREFIX}/request`,
  backchannel_authentication: `${OIDC_PREFIX}/backchannel`,
  registration: `${OIDC_PREFIX}/reg`,
  challenge: `${OIDC_PREFIX}/challenge`,
} as const;

export interface OidcConfigDeps {
  db: Database;
  config: Pick<Config, 'appUrl' | 'sessionIdleMs' | 'locales' | 'defaultLocale'>;
  clientBox: SecretBox;
  /** Signs the provider's own cookies (interaction, its session). */
  cookieKeys: string[];
}

const isFirstParty = (client: Client | undefined) => client?.metadata()[FIRST_PARTY] === true;

/**
 * The person behind our own session cookie, if any. The provider keeps a session of its
 * own; it counts only while it is the same person as ours, so signing out of the product
 * (or in as someone else) is signing out of the apps' sign-in too.
 */
async function appSessionAccount(deps: OidcConfigDeps, ctx: KoaContextWithOIDC) {
  const token = ctx.cookies.get(sessionCookieName(deps.config));
  if (!token) return undefined;
  const found = await findSession(deps.db, deps.config, token);
  return found && !found.user.blockedAt && !found.user.deleteAt ? found.user : undefined;
}

/** oidc-provider's interaction policy helpers (the module is loaded when first needed). */
export type InteractionPolicyModule = typeof InteractionPolicy;

function policy(deps: OidcConfigDeps, interactionPolicy: InteractionPolicyModule) {
  const prompts = interactionPolicy.base();
  prompts.get('login')?.checks.add(
    new interactionPolicy.Check(
      'app_session_changed',
      'the product session ended or belongs to someone else',
      'login_required',
      async (ctx) => {
        const accountId = ctx.oidc.session?.accountId;
        if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        const user = await appSessionAccount(deps, ctx);
        return String(user?.id) === accountId
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT;
      },
    ),
  );
  return prompts;
}

/** Everything the provider is configured with, but its keys (oidc-host.ts). */
export function oidcConfiguration(
  deps: OidcConfigDeps,
  keys: JWK[],
  interactionPolicy: InteractionPolicyModule,
): Configuration {
  const clients = new ClientAdapter(deps.db, deps.clientBox);
  const pages = providerPages(deps.config);
  return {
    adapter: (model: string) => (model === 'Client' ? clients : new DrizzleAdapter(deps.db, model)),
    clients: [],
    jwks: { keys },
    cookies: {
      keys: deps.cookieKeys,
      names: { session: 'oidc_session', interaction: 'oidc_interaction', resume: 'oidc_resume' },
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    routes: OIDC_ROUTES,
    scopes: OIDC_SCOPES,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username', 'locale'],
    },
    async findAccount(_ctx, sub) {
      const id = Number(sub);
      if (!Number.isSafeInteger(id) || id <= 0) return undefined;
      const [user] = await deps.db.select().from(users).where(eq(users.id, id)).limit(1);
      // A blocked account, or one deactivated (awaiting deletion), is no one an app acts for.
      if (!user || user.blockedAt || user.deleteAt) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: user.email,
          email_verified: Boolean(user.emailVerifiedAt),
          name: user.name ?? undefined,
          preferred_username: user.username,
          locale: user.locale,
        }),
      };
    },
    extraClientMetadata: { properties: [FIRST_PARTY] },
    features: {
      devInteractions: { enabled: false },
      deviceFlow: { enabled: true, charset: 'base-20', mask: '****-****' },
      // A client learns about its own tokens only, not another app's.
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, caller, token) => token.clientId === caller.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, caller, token) => token.clientId === caller.clientId,
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: pages.logoutSource,
        postLogoutSuccessSource: pages.postLogoutSuccessSource,
      },
    },
    // PKCE is a must for apps that hold no secret; S256 only (the provider's default).
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    rotateRefreshToken: true,
    // Our apps keep signing in without `offline_access` and its consent (the OpenID rule
    // for third parties); the refresh tokens of either do not end with a browser's session.
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') &&
      (code.scopes.has('offline_access') || isFirstParty(client)),
    expiresWithSession: async (ctx, code) =>
      !code.scopes.has('offline_access') && !isFirstParty(ctx.oidc.client),
    // First-party apps skip consent: their grant is made here for what they ask (within what
    // staff allowed them), so the consent prompt never comes up for them.
    async loadExistingGrant(ctx) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      if (!isFirstParty(client)) return undefined;
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      grant.addOIDCScope(String(ctx.oidc.params?.scope ?? 'openid'));
      await grant.save();
      session.grantIdFor(client.clientId, grant.jti);
      return grant;
    },
    interactions: {
      url: (_ctx, interaction) => interactionPath(interaction.uid),
      policy: policy(deps, interactionPolicy),
    },
    ttl: { ...OIDC_TTL },
    // A protocol error a browser lands on: a page of ours, never a stack or a 500 page.
    renderError: pages.renderError,
    conformIdTokenClaims: true,
    enableHttpPostMethods: false,
  };
}
