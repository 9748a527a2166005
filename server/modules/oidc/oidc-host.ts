import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { type OidcConfigDeps, oidcConfiguration } from './oidc-config.ts';
import { signingKeys } from './oidc-keys.ts';

/** How often a process looks for a rotated key set (another process may have rotated it). */
export const KEY_CHECK_MS = 60_000;

export interface OidcHostDeps extends OidcConfigDeps {
  keyBox: SecretBox;
  log: FastifyBaseLogger;
  /** Behind a proxy that terminates TLS: trust its forwarded protocol for cookies. */
  proxy: boolean;
  now?: () => number;
  /** Called with each provider made (its event listeners). */
  onProvider?: (provider: Provider) => void;
}

/**
 * Holds the provider. oidc-provider reads its signing keys once, when it is made, so a
 * rotated key set (the scheduled rotation, in any process) means a new provider: each
 * process checks the set at most once a minute and rebuilds when it changed. Everything
 * else the provider knows is in the database, so nothing is lost in the swap.
 */
/** What revoking apps' grants tells the rest of the product (the VPN removes their devices). */
export interface GrantsRevoked {
  request: Pick<FastifyRequest, 'ip' | 'headers'>;
  userId: number;
  grantIds: string[];
}

export class OidcHost {
  private provider: Provider | undefined;
  private readonly revokedListeners: ((event: GrantsRevoked) => Promise<void>)[] = [];
  private fingerprint = '';
  private checkedAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<Provider> | undefined;

  constructor(
    private readonly deps: OidcHostDeps,
    readonly issuer: string,
  ) {}

  /** The provider with the current keys. */
  async current(): Promise<Provider> {
    const now = (this.deps.now ?? Date.now)();
    if (this.provider && now - this.checkedAt < KEY_CHECK_MS) return this.provider;
    this.pending ??= this.refresh(now).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  onGrantsRevoked(listener: (event: GrantsRevoked) => Promise<void>): void {
    this.revokedListeners.push(listener);
  }

  /** Tells the listeners, one after the other, before the person is answered. */
  async grantsRevoked(event: GrantsRevoked): Promise<void> {
    if (event.grantIds.length === 0) return;
    for (const listener of this.revokedListeners) await listener(event);
  }

  /** Reads the key set again at the next request (after a rotation in this process). */
  invalidate(): void {
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }

  private async refresh(now: number): Promise<Provider> {
    const { keys, fingerprint } = await signingKeys(this.deps.db, this.deps.keyBox);
    this.checkedAt = now;
    if (this.provider && fingerprint === this.fingerprint) return this.provider;
    // Loaded when first needed, not with the server: on Node 20 its import prints a runtime
    // warning, which must not precede (or pass for) a start-up's configuration error.
    const oidc = await import('oidc-provider');
    const provider = new oidc.default(
      this.issuer,
      oidcConfiguration(this.deps, keys, oidc.interactionPolicy),
    );
    provider.proxy = this.deps.proxy;
    this.deps.onProvider?.(provider);
    this.deps.log.info({ keys: fingerprint }, 'OpenID provider ready');
    this.provider = provider;
    this.fingerprint = fingerprint;
    return provider;
  }
}
