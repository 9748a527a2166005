import { z } from 'zod';

// The keys of each real payment gateway, in one place: the environment (STRIPE_SECRET_KEY …,
// read by server/config.ts), the admin's gateway settings (stored with the secrets sealed)
// and each adapter take their shape from here. A gateway without its keys is off.

const text = z.string().trim().min(1).max(200);
/** A provider's API base, set only to reach a stand-in of it (tests) or a regional host. */
const apiUrl = z
  .url({ protocol: /^https?$/ })
  .max(300)
  .optional();

/** Many certificates in one PEM text (Apple's root, or a chain). */
const pemCertificates = z
  .string()
  .max(40_000)
  .transform((value) => value.replace(/\\n/g, '\n').trim())
  .refine((pem) => /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(pem), {
    message: 'must hold one or more PEM certificates',
  });

const pemPrivateKey = z
  .string()
  .max(10_000)
  .transform((value) => value.replace(/\\n/g, '\n').trim())
  .refine((pem) => /-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----/.test(pem), {
    message: 'must be the PEM of a PKCS#8 private key (the .p8 file)',
  });

/** A switch: true or false from a form, `true`/`false`/`1`/`0` from the environment. */
const onOff = z
  .union([
    z.boolean(),
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .transform((word) => ['true', '1', 'yes'].includes(word)),
  ])
  .default(false);

export const gatewaySettingsSchemas = {
  /** Stripe (service 1): hosted Checkout, subscriptions, refunds. */
  stripe: z.object({
    secretKey: text.regex(/^(sk|rk)_/, 'must start with sk_ or rk_'),
    webhookSecret: text.regex(/^whsec_/, 'must start with whsec_'),
    apiUrl,
    /** Offer Google Pay and Apple Pay on Checkout (§3 payment method flags). */
    googlePay: onOff,
    applePay: onOff,
  }),
  /** PayPal (service 2): plans and subscriptions through the approval link. */
  paypal: z.object({
    clientId: text,
    clientSecret: text,
    /** The id of the webhook registered at PayPal: it is part of what PayPal signs. */
    webhookId: text,
    environment: z.enum(['sandbox', 'live']).default('live'),
    apiUrl,
  }),
  /** App Store in-app purchases (service 4). */
  appstore: z
    .object({
      bundleId: text,
      /** The app's Apple ID (numeric), needed to verify production notifications. */
      appAppleId: z.coerce.number().int().positive().optional(),
      environment: z.enum(['Production', 'Sandbox']).default('Production'),
      /** The App Store Server API key (App Store Connect → Users and Access → Integrations). */
      issuerId: text,
      keyId: text,
      privateKey: pemPrivateKey,
      /** Apple's root certificate(s), as the operator downloads them from Apple. */
      rootCertificates: pemCertificates,
      apiUrl,
    })
    .refine((settings) => settings.environment !== 'Production' || settings.appAppleId, {
      // Apple's verifier needs it to believe production notifications.
      path: ['appAppleId'],
      message: 'is required for the Production environment',
    }),
  /** Cryptomus (service 6): one-time crypto invoices. */
  cryptomus: z.object({
    merchantId: text,
    /** The payment API key: it signs our requests and its webhooks. */
    paymentKey: text,
    apiUrl,
  }),
} as const;

export type RealGatewayName = keyof typeof gatewaySettingsSchemas;
export const REAL_GATEWAYS = Object.keys(gatewaySettingsSchemas) as [
  RealGatewayName,
  ...RealGatewayName[],
];

export type StripeSettings = z.output<typeof gatewaySettingsSchemas.stripe>;
export type PayPalSettings = z.output<typeof gatewaySettingsSchemas.paypal>;
export type AppStoreSettings = z.output<typeof gatewaySettingsSchemas.appstore>;
export type CryptomusSettings = z.output<typeof gatewaySettingsSchemas.cryptomus>;

export interface GatewaySettingsOf {
  stripe: StripeSettings;
  paypal: PayPalSettings;
  appstore: AppStoreSettings;
  cryptomus: CryptomusSettings;
}

/** Write-only fields: sealed at rest, never shown back, kept when a form leaves them out. */
export const GATEWAY_SECRET_FIELDS: { [G in RealGatewayName]: readonly string[] } = {
  stripe: ['secretKey', 'webhookSecret'],
  paypal: ['clientSecret'],
  appstore: ['privateKey'],
  cryptomus: ['paymentKey'],
};

/** The environment variable of a setting: STRIPE_SECRET_KEY, APPSTORE_APP_APPLE_ID … */
export function gatewayEnvName(gateway: RealGatewayName, field: string): string {
  return `${gateway.toUpperCase()}_${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}
