import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { OAuthProviderId } from '#shared/contracts/oauth.ts';
import { FIELD_IS_INVALID, FIELD_IS_REQUIRED } from '#shared/validation/zod-messages.ts';
import type { Database } from '../../db/client.ts';
import { type OAuthProviderRow, oauthProviders } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { isApplePrivateKey } from '../../platform/oauth/apple-client-secret.ts';
import {
  appleSettings,
  DEFAULT_ISSUERS,
  googleSettings,
  type OAuthProviderSettings,
  type ProviderOverrides,
} from '../../platform/oauth/providers.ts';
import { recordAudit } from '../audit/audit-log.ts';

/** What staff set for one provider (the admin "OAuth providers" section, §7). */
export interface ProviderSettingsInput {
  id: OAuthProviderId;
  enabled: boolean;
  /** The provider's own issuer unless given (a stand-in provider, a test). */
  issuer?: string | undefined;
  clientId: string;
  /**
   * Google: the client secret; Apple: the PEM of the sign-in key. Write-only: left out, the
   * stored one stays, so a form never has to show it.
   */
  secret?: string | undefined;
  /** Apple only. */
  appleTeamId?: string | undefined;
  appleKeyId?: string | undefined;
}

/** What reading and saving the settings needs: the box their secrets are sealed in. */
export interface ProviderSettingsDeps {
  db: Database;
  log: FastifyBaseLogger;
  oauthProviderBox: SecretBox;
}

/** A stored row as the settings a sign-in runs with, or null when it switches the provider off. */
function settingsOf(
  deps: ProviderSettingsDeps,
  row: OAuthProviderRow,
): OAuthProviderSettings | null {
  if (!row.enabled) return null;
  let secret: string;
  try {
    secret = deps.oauthProviderBox.open(row.secretSealed);
  } catch (error) {
    // Sealed under another APP_SECRET: staff must enter the secret again. Off until then,
    // rather than falling back to settings they chose to replace.
    deps.log.error({ err: error, provider: row.id }, 'oauth provider secret cannot be opened');
    return null;
  }
  if (row.id === 'google') {
    return googleSettings({ issuer: row.issuer, clientId: row.clientId, clientSecret: secret });
  }
  if (row.id === 'apple' && row.appleTeamId && row.appleKeyId) {
    return appleSettings({
      issuer: row.issuer,
      clientId: row.clientId,
      teamId: row.appleTeamId,
      keyId: row.appleKeyId,
      privateKey: secret,
    });
  }
  deps.log.error({ provider: row.id }, 'oauth provider row is incomplete');
  return null;
}

/** The database's say on each provider it has a row for (see mergeProviders). */
export async function storedProviders(deps: ProviderSettingsDeps): Promise<ProviderOverrides> {
  const rows = await deps.db.select().from(oauthProviders);
  const overrides: ProviderOverrides = {};
  for (const row of rows) {
    if (row.id === 'google' || row.id === 'apple') overrides[row.id] = settingsOf(deps, row);
  }
  return overrides;
}

/** A stored secret, or '' when there is none or it was sealed under another key. */
function openedOrEmpty(deps: ProviderSettingsDeps, sealed: string): string {
  try {
    return deps.oauthProviderBox.open(sealed);
  } catch {
    return '';
  }
}

function checkedIssuer(issuer: string): string {
  try {
    const url = new URL(issuer);
    if (url.protocol === 'https:' || url.protocol === 'http:') return issuer.replace(/\/$/, '');
  } catch {
    // Reported below.
  }
  throw AppError.field('issuer', FIELD_IS_INVALID);
}

/**
 * Saves a provider's settings in the database, where they override the environment's from
 * the next sign-in on (no restart). The secret is sealed with the app key, never stored or
 * audited in the clear. Switching a provider off needs no keys.
 */
export async function saveProviderSettings(
  deps: ProviderSettingsDeps,
  request: Pick<FastifyRequest, 'ip' | 'headers'>,
  actorId: number,
  input: ProviderSettingsInput,
): Promise<void> {
  const [stored] = await deps.db
    .select()
    .from(oauthProviders)
    .where(eq(oauthProviders.id, input.id))
    .limit(1);
  const storedSecret = stored ? openedOrEmpty(deps, stored.secretSealed) : '';
  const issuer = checkedIssuer(input.issuer?.trim() || stored?.issuer || DEFAULT_ISSUERS[input.id]);
  const clientId = input.clientId.trim();
  const secret = input.secret?.trim() || undefined;
  const isApple = input.id === 'apple';
  const teamId = isApple ? input.appleTeamId?.trim() || null : null;
  const keyId = isApple ? input.appleKeyId?.trim() || null : null;
  if (input.enabled) {
    if (!clientId) throw AppError.field('client_id', FIELD_IS_REQUIRED);
    if (!secret && !storedSecret) throw AppError.field('secret', FIELD_IS_REQUIRED);
    if (isApple && !teamId) throw AppError.field('apple_team_id', FIELD_IS_REQUIRED);
    if (isApple && !keyId) throw AppError.field('apple_key_id', FIELD_IS_REQUIRED);
  }
  if (isApple && secret && !isApplePrivateKey(secret)) {
    throw AppError.field('secret', FIELD_IS_INVALID);
  }
  const values = {
    enabled: input.enabled,
    issuer,
    clientId,
    // A provider only switched off keeps no secret of its own: an empty one, sealed.
    secretSealed: deps.oauthProviderBox.seal(secret ?? storedSecret),
    appleTeamId: teamId,
    appleKeyId: keyId,
  };
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(oauthProviders)
      .values({ id: input.id, ...values })
      .onConflictDoUpdate({ target: oauthProviders.id, set: values });
    await recordAudit(tx, request, {
      action: 'oauth.provider_updated',
      actorId,
      subjectType: 'oauth_provider',
      subjectId: input.id,
      data: { enabled: input.enabled, issuer, client_id: clientId, secret_changed: !!secret },
    });
  });
}
