import type { z } from 'zod';
import {
  GATEWAY_SECRET_FIELDS,
  gatewaySettingsSchemas,
  type RealGatewayName,
} from '#shared/billing/gateway-settings.ts';

// How each field of a gateway's keys (shared/billing/gateway-settings.ts) is asked for. The
// type below makes this list name every field of the schema and nothing else, so a field
// added there fails the type check here until it has a label and a control.

/** The gateways as the route table names them; the App Store's route says `iap`. */
export const ROUTE_GATEWAYS = {
  stripe: 'stripe',
  paypal: 'paypal',
  iap: 'appstore',
  cryptomus: 'cryptomus',
} as const satisfies Record<string, RealGatewayName>;
export type GatewayRouteKey = keyof typeof ROUTE_GATEWAYS;

export type FieldControl =
  | { kind: 'text' }
  | { kind: 'number' }
  | { kind: 'url' }
  | { kind: 'switch' }
  /** A PEM text: many lines, pasted whole. */
  | { kind: 'pem' }
  | { kind: 'select'; options: readonly { value: string; label: string }[] };

export interface FieldSpec {
  /** i18n key. */
  label: string;
  /** i18n key of a line of help under the field. */
  hint?: string;
  control: FieldControl;
}

type SettingsInput<G extends RealGatewayName> = z.input<(typeof gatewaySettingsSchemas)[G]>;
type FieldsOf<G extends RealGatewayName> = { readonly [F in keyof SettingsInput<G>]-?: FieldSpec };

const text = { kind: 'text' } as const;
const apiUrl: FieldSpec = {
  label: 'staff.gateway_settings.fields.api_url',
  hint: 'staff.gateway_settings.hints.api_url',
  control: { kind: 'url' },
};

export const GATEWAY_FIELDS: { readonly [G in RealGatewayName]: FieldsOf<G> } = {
  stripe: {
    secretKey: { label: 'staff.gateway_settings.fields.stripe_secret_key', control: text },
    webhookSecret: {
      label: 'staff.gateway_settings.fields.stripe_webhook_secret',
      control: text,
    },
    apiUrl,
    googlePay: { label: 'staff.gateway_settings.fields.google_pay', control: { kind: 'switch' } },
    applePay: { label: 'staff.gateway_settings.fields.apple_pay', control: { kind: 'switch' } },
  },
  paypal: {
    clientId: { label: 'staff.gateway_settings.fields.client_id', control: text },
    clientSecret: { label: 'staff.gateway_settings.fields.client_secret', control: text },
    webhookId: {
      label: 'staff.gateway_settings.fields.webhook_id',
      hint: 'staff.gateway_settings.hints.paypal_webhook_id',
      control: text,
    },
    environment: {
      label: 'staff.gateway_settings.fields.environment',
      control: {
        kind: 'select',
        options: [
          { value: 'live', label: 'staff.gateway_settings.environments.live' },
          { value: 'sandbox', label: 'staff.gateway_settings.environments.sandbox' },
        ],
      },
    },
    apiUrl,
  },
  appstore: {
    bundleId: { label: 'staff.gateway_settings.fields.bundle_id', control: text },
    appAppleId: {
      label: 'staff.gateway_settings.fields.app_apple_id',
      hint: 'staff.gateway_settings.hints.app_apple_id',
      control: { kind: 'number' },
    },
    environment: {
      label: 'staff.gateway_settings.fields.environment',
      control: {
        kind: 'select',
        options: [
          { value: 'Production', label: 'staff.gateway_settings.environments.production' },
          { value: 'Sandbox', label: 'staff.gateway_settings.environments.sandbox' },
        ],
      },
    },
    issuerId: { label: 'staff.gateway_settings.fields.issuer_id', control: text },
    keyId: { label: 'staff.gateway_settings.fields.key_id', control: text },
    privateKey: {
      label: 'staff.gateway_settings.fields.private_key',
      hint: 'staff.gateway_settings.hints.private_key',
      control: { kind: 'pem' },
    },
    rootCertificates: {
      label: 'staff.gateway_settings.fields.root_certificates',
      hint: 'staff.gateway_settings.hints.root_certificates',
      control: { kind: 'pem' },
    },
    apiUrl,
  },
  cryptomus: {
    merchantId: { label: 'staff.gateway_settings.fields.merchant_id', control: text },
    paymentKey: { label: 'staff.gateway_settings.fields.payment_key', control: text },
    apiUrl,
  },
};

export interface GatewayField extends FieldSpec {
  name: string;
  /** Write-only: never shown back, kept when left empty. */
  secret: boolean;
}

/** The fields of a gateway's form, in the order above. */
export function gatewayFields(gateway: RealGatewayName): GatewayField[] {
  const secrets = GATEWAY_SECRET_FIELDS[gateway];
  return Object.entries(GATEWAY_FIELDS[gateway] as Record<string, FieldSpec>).map(
    ([name, spec]) => ({ ...spec, name, secret: secrets.includes(name) }),
  );
}

/** What the schema puts in a field left out (PayPal's `live`, a switch's `false`). */
export function schemaDefault(gateway: RealGatewayName, field: string): unknown {
  const shape = gatewaySettingsSchemas[gateway].shape as Record<string, z.ZodType>;
  const parsed = shape[field]?.safeParse(undefined);
  return parsed?.success ? parsed.data : undefined;
}
