import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { GATEWAYS } from '#shared/billing/billing-values.ts';
import {
  GATEWAY_SECRET_FIELDS,
  type GatewaySettingsOf,
  gatewaySettingsSchemas,
  REAL_GATEWAYS,
  type RealGatewayName,
} from '#shared/billing/gateway-settings.ts';
import type {
  GatewaySettingsUpdate,
  GatewaySettingsView,
} from '#shared/contracts/admin/payment-gateways.ts';
import { FIELD_IS_INVALID, FIELD_IS_REQUIRED } from '#shared/validation/zod-messages.ts';
import type { Database } from '../../db/client.ts';
import { type GatewaySettingsRow, gatewaySettings } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { webhookUrl } from '../../platform/payments/gateway.ts';
import { recordAudit } from '../audit/audit-log.ts';

// Which keys each real gateway runs with: a row staff saved wins over the environment's
// (STRIPE_* …), as for the OAuth providers. Secret fields are sealed together in one value.

export interface GatewaySettingsDeps {
  db: Database;
  log: FastifyBaseLogger;
  gatewaySettingsBox: SecretBox;
  config: { appUrl: string; billing: { gateways: Partial<GatewaySettingsOf> } };
}

export type InForce = {
  [G in RealGatewayName]?: {
    settings: GatewaySettingsOf[G];
    source: 'environment' | 'admin';
    /** False: switched off by staff, yet kept to serve what it sold (webhooks, renewals). */
    selling: boolean;
  };
};

type Values = Record<string, unknown>;

function openSecrets(deps: GatewaySettingsDeps, row: GatewaySettingsRow): Values | null {
  try {
    return JSON.parse(deps.gatewaySettingsBox.open(row.secretsSealed)) as Values;
  } catch (error) {
    // Sealed under another APP_SECRET: staff must enter the keys again. Off until then.
    deps.log.error({ err: error, gateway: row.gateway }, 'gateway secrets cannot be opened');
    return null;
  }
}

function isReal(name: string): name is RealGatewayName {
  return (REAL_GATEWAYS as string[]).includes(name);
}

/**
 * The settings each gateway runs with now; a gateway absent here has no keys at all. One
 * staff switched off keeps its last keys, not selling: its subscribers still renew and its
 * webhooks still arrive.
 */
export async function settingsInForce(deps: GatewaySettingsDeps): Promise<InForce> {
  const inForce: Record<
    string,
    { settings: unknown; source: 'environment' | 'admin'; selling: boolean }
  > = {};
  for (const gateway of REAL_GATEWAYS) {
    const fromEnv = deps.config.billing.gateways[gateway];
    if (fromEnv) inForce[gateway] = { settings: fromEnv, source: 'environment', selling: true };
  }
  for (const row of await deps.db.select().from(gatewaySettings)) {
    if (!isReal(row.gateway)) continue;
    const fromEnv = inForce[row.gateway];
    delete inForce[row.gateway];
    const secrets = openSecrets(deps, row);
    const parsed = secrets
      ? gatewaySettingsSchemas[row.gateway].safeParse({ ...row.settings, ...secrets })
      : null;
    if (parsed?.success) {
      inForce[row.gateway] = { settings: parsed.data, source: 'admin', selling: row.enabled };
    } else if (!row.enabled && fromEnv) {
      inForce[row.gateway] = { ...fromEnv, selling: false };
    } else if (row.enabled) {
      deps.log.error({ gateway: row.gateway }, 'stored gateway settings are incomplete');
    }
  }
  return inForce as InForce;
}

/** Field errors of a settings form, as the translated messages under each field. */
function fieldErrors(issues: readonly { path: PropertyKey[]; code: string; input?: unknown }[]) {
  const validation: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = `values.${String(issue.path[0] ?? '')}`;
    const missing = issue.input === undefined || issue.input === '';
    validation[field] = [missing ? FIELD_IS_REQUIRED : FIELD_IS_INVALID];
  }
  return new AppError('validation_failed', { validation });
}

/**
 * Saves staff's keys for a gateway, checked against its schema; a secret left out (or empty)
 * keeps the stored one. Switched off, nothing needs to be complete. Audited in the same
 * transaction, naming the fields changed, never their values.
 */
export async function saveGatewaySettings(
  deps: GatewaySettingsDeps,
  request: Pick<FastifyRequest, 'ip' | 'headers'>,
  actorId: number,
  input: GatewaySettingsUpdate,
): Promise<void> {
  const { gateway } = input;
  const schema = gatewaySettingsSchemas[gateway];
  const secretFields = GATEWAY_SECRET_FIELDS[gateway];
  const known = Object.keys(schema.shape);
  const [stored] = await deps.db
    .select()
    .from(gatewaySettings)
    .where(eq(gatewaySettings.gateway, gateway));
  const storedSecrets = (stored && openSecrets(deps, stored)) ?? {};
  const given = Object.fromEntries(
    Object.entries(input.values).filter(
      ([field, value]) => known.includes(field) && value !== null && value !== '',
    ),
  );
  const merged: Values = { ...given };
  // Stored secrets go only where they went before: a changed API address or environment
  // needs them typed again, so a hijacked session cannot send them to a host of its own.
  const sameDestination = ['apiUrl', 'environment'].every(
    (field) => (given[field] ?? null) === (stored?.settings[field] ?? null),
  );
  if (sameDestination) for (const field of secretFields) merged[field] ??= storedSecrets[field];
  const secretsChanged = secretFields.filter((field) => given[field] !== undefined);
  let toStore: Values = merged;
  if (input.enabled) {
    const parsed = schema.safeParse(merged);
    if (!parsed.success) throw fieldErrors(parsed.error.issues);
    toStore = parsed.data as Values;
  }
  const secrets = Object.fromEntries(secretFields.map((field) => [field, toStore[field]]));
  const settings = Object.fromEntries(
    Object.entries(toStore).filter(([field]) => !secretFields.includes(field)),
  );
  const values = {
    enabled: input.enabled,
    settings,
    secretsSealed: deps.gatewaySettingsBox.seal(JSON.stringify(secrets)),
  };
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(gatewaySettings)
      .values({ gateway, ...values })
      .onConflictDoUpdate({ target: gatewaySettings.gateway, set: values });
    await recordAudit(tx, request, {
      action: 'billing.gateway_settings_updated',
      actorId,
      subjectType: 'payment_gateway',
      subjectId: gateway,
      data: {
        enabled: input.enabled,
        fields: Object.keys(settings),
        secrets_changed: secretsChanged,
      },
    });
  });
}

/** Each gateway's settings as staff see them: secrets only as set or not. */
export async function presentGatewaySettings(
  deps: GatewaySettingsDeps,
  selling: ReadonlySet<RealGatewayName>,
): Promise<GatewaySettingsView[]> {
  const inForce = await settingsInForce(deps);
  const rows = new Map(
    (await deps.db.select().from(gatewaySettings)).map((row) => [row.gateway, row]),
  );
  return REAL_GATEWAYS.map((gateway) => {
    const current = inForce[gateway];
    const row = rows.get(gateway);
    const secretFields = GATEWAY_SECRET_FIELDS[gateway];
    // Shown: what runs; for a gateway staff switched off, what they saved.
    const source: Values = current?.settings ?? row?.settings ?? {};
    const storedSecrets = row ? (openSecrets(deps, row) ?? {}) : {};
    const values = Object.fromEntries(
      Object.entries(source).filter(
        (entry): entry is [string, string | boolean | number] =>
          !secretFields.includes(entry[0]) &&
          ['string', 'boolean', 'number'].includes(typeof entry[1]),
      ),
    );
    const secrets = Object.fromEntries(
      secretFields.map((field) => [
        field,
        Boolean((current?.settings as Values | undefined)?.[field] ?? storedSecrets[field]),
      ]),
    );
    return {
      gateway,
      service_id: GATEWAYS[gateway],
      enabled: selling.has(gateway),
      source: row ? 'admin' : current ? 'environment' : 'none',
      values,
      secrets,
      webhook_url: webhookUrl(deps.config.appUrl, gateway),
    };
  });
}
