import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { decodeChallenge, encodeChallenge } from '#shared/challenge.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { endpointUrl } from '#shared/contracts/endpoint.ts';
import {
  OAUTH_MESSAGES,
  type OAuthLoginRequest,
  type OAuthProvider,
  type OAuthTokenRequest,
  oauthEndpoints,
} from '#shared/contracts/oauth.ts';
import type { Lang } from '#shared/locales.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import {
  newAuthorizationChecks,
  type OAuthIdentity,
  OidcClients,
  ProviderError,
} from '../../platform/oauth/oidc-client.ts';
import { type OAuthProviderSettings, OAuthProviders } from '../../platform/oauth/providers.ts';
import { type OAuthState, sameSecret } from '../../platform/oauth/state-cookie.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { AuthService, SignInOutcome } from '../identity/auth-service.ts';
import { consumeToken, issueToken } from '../identity/one-time-tokens.ts';
import { publishDevicesDeleted, publishUserUpdated } from '../identity/user-events.ts';
import { type ResolvedUser, refuseBlocked, resolveUser } from './oauth-users.ts';
import { storedProviders } from './provider-settings.ts';

const stateMismatch = () => new AppError('bad_request', { info: OAUTH_MESSAGES.stateMismatch });

/** The refusals of auth/token the audit log records, by the message they answer with. */
const FAILURE_REASONS: Record<string, string> = {
  [OAUTH_MESSAGES.stateMismatch]: 'state_mismatch',
  [OAUTH_MESSAGES.providerFailed]: 'provider_failed',
  [OAUTH_MESSAGES.emailUnverified]: 'email_unverified',
  [AUTH_MESSAGES.accountBlocked]: 'account_blocked',
};

/**
 * What social sign-in needs besides the sign-in service it ends with: the providers'
 * settings (environment and database, secrets sealed), limits, events, and the log.
 */
export interface OAuthDeps {
  db: Database;
  config: Pick<Config, 'appUrl' | 'defaultLocale' | 'locales' | 'oauth'>;
  rateLimiter: RateLimiter;
  realtime: Realtime;
  log: FastifyBaseLogger;
  oauthProviderBox: SecretBox;
}

/** Social sign-in with Google and Apple (§7 OAuth; the flow is told in the contract). */
export class OAuthService {
  private readonly providers: OAuthProviders;
  private readonly clients = new OidcClients();

  constructor(
    private readonly deps: OAuthDeps,
    private readonly auth: AuthService,
  ) {
    // The database's settings (staff, admin section) override the environment's per provider.
    this.providers = OAuthProviders.fromConfigAndStore(deps.config, () => storedProviders(deps));
  }

  private get db() {
    return this.deps.db;
  }

  /** The provider's settings, or 404 when it is unknown or switched off. */
  async provider(id: string): Promise<OAuthProviderSettings> {
    const settings = await this.providers.find(id);
    if (!settings) throw new AppError('not_found', { info: OAUTH_MESSAGES.providerDisabled });
    return settings;
  }

  async list(): Promise<OAuthProvider[]> {
    return (await this.providers.list()).map(({ id, name }) => ({
      id,
      name,
      href: endpointUrl(oauthEndpoints.authorize.url, { provider: id }),
    }));
  }

  /** Our callback URL, registered with the provider as its redirect URI. */
  redirectUri(provider: OAuthProviderSettings): string {
    const path = endpointUrl(oauthEndpoints.callback.url, { provider: provider.id });
    return `${this.deps.config.appUrl}${path}`;
  }

  /** A provider's failure is not ours: a 400 the page can show, the cause in the log. */
  private async fromProvider<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.deps.log.warn({ err: error }, 'oauth provider failed');
      throw new AppError('bad_request', { info: OAUTH_MESSAGES.providerFailed });
    }
  }

  /** Starts a sign-in: the provider's authorization URL and the state to remember. */
  async authorize(
    provider: OAuthProviderSettings,
    lang: Lang | undefined,
  ): Promise<{ url: URL; state: OAuthState }> {
    const checks = newAuthorizationChecks();
    const state: OAuthState = {
      provider: provider.id,
      ...checks,
      lang: lang && this.deps.config.locales.includes(lang) ? lang : this.deps.config.defaultLocale,
      createdAt: Date.now(),
    };
    const url = await this.fromProvider(
      this.clients.authorizationUrl(provider, this.redirectUri(provider), checks),
    );
    return { url, state };
  }

  /**
   * §7 auth/token: checks the state against this browser's, exchanges the code, finds or
   * makes the user, and answers a one-time token for auth/login. A link or a new account is
   * audited in its own transaction; refusals are audited on their own: a run of state
   * mismatches is someone replaying or forging callbacks.
   */
  async token(
    request: FastifyRequest,
    input: OAuthTokenRequest,
    state: OAuthState | undefined,
  ): Promise<string> {
    await this.deps.rateLimiter.consume([
      { name: 'oauth-token-ip', key: request.ip, ...CREDENTIAL_LIMITS.signInPerIp },
    ]);
    const provider = await this.provider(input.provider_id);
    let identity: OAuthIdentity | undefined;
    try {
      if (!state || state.provider !== provider.id || !sameSecret(state.state, input.state)) {
        throw stateMismatch();
      }
      identity = await this.fromProvider(
        this.clients.identity(provider, this.redirectUri(provider), input.code, state),
      );
      const { user, resolution, endedSessions } = await resolveUser(
        this.db,
        provider.id,
        { ...identity, name: identity.name ?? state.name },
        state.lang,
        (tx, resolved) => this.recordResolution(tx, request, resolved, provider.id),
      );
      if (resolution === 'secured') {
        // The account's password and sessions are gone: its open pages must hear of it.
        void publishUserUpdated(this.deps, user);
        void publishDevicesDeleted(this.deps, user.id, endedSessions ?? []);
      }
      refuseBlocked(user);
      // Sign-up's rule: an address nobody has vouched for gets the verification e-mail.
      if (resolution === 'created' && !user.emailVerifiedAt) await this.auth.sendVerification(user);
      const token = await issueToken(this.db, 'oauth_login', user.id, user.email);
      return encodeChallenge({ email: user.email, token });
    } catch (error) {
      const reason = error instanceof AppError ? FAILURE_REASONS[error.info[0] ?? ''] : undefined;
      if (reason) {
        await recordAudit(this.db, request, {
          action: 'oauth.sign_in_failed',
          actorId: null,
          subjectType: 'oauth_provider',
          subjectId: provider.id,
          data: { reason, ...(identity?.email ? { email: identity.email } : {}) },
        });
      }
      throw error;
    }
  }

  /** The audit row of a link or a new account, in `tx`, the transaction that made it. */
  private async recordResolution(
    tx: Database,
    request: FastifyRequest,
    { user, resolution }: ResolvedUser,
    provider: string,
  ): Promise<void> {
    const entry = { actorId: user.id, subjectType: 'user', subjectId: user.id, data: { provider } };
    if (resolution === 'linked' || resolution === 'secured') {
      await recordAudit(tx, request, {
        ...entry,
        action: 'oauth.linked',
        data: { provider, ...(resolution === 'secured' ? { password_removed: true } : {}) },
      });
    } else if (resolution === 'created') {
      await recordAudit(tx, request, {
        ...entry,
        action: 'auth.signed_up',
        data: { provider, method: 'oauth' },
      });
    }
  }

  /** §7 auth/login: the one-time token, used once, becomes a session (or the 2FA step). */
  async login(request: FastifyRequest, input: OAuthLoginRequest): Promise<SignInOutcome> {
    await this.deps.rateLimiter.consume([
      { name: 'oauth-login-ip', key: request.ip, ...CREDENTIAL_LIMITS.signInPerIp },
    ]);
    const invalid = () => new AppError('bad_request', { info: AUTH_MESSAGES.linkInvalid });
    const challenge = decodeChallenge(input.token);
    if (!challenge?.email || !challenge.token) throw invalid();
    const used = await consumeToken(this.db, 'oauth_login', challenge.email, challenge.token);
    if (!used) throw invalid();
    const [user] = await this.db.select().from(users).where(eq(users.id, used.userId)).limit(1);
    if (!user) throw invalid();
    refuseBlocked(user);
    // Recorded in the transaction of the session (or of the second step's challenge).
    return this.auth.finishSignIn(request, user, 'oauth', (tx, secondFactor) =>
      recordAudit(tx, request, {
        action: 'oauth.signed_in',
        actorId: user.id,
        subjectType: 'user',
        subjectId: user.id,
        data: { second_factor: secondFactor },
      }),
    );
  }
}
