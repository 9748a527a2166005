import type { GatewaySettingsOf, RealGatewayName } from '#shared/billing/gateway-settings.ts';
import { createAppStoreGateway } from './appstore/appstore-gateway.ts';
import { createCryptomusGateway } from './cryptomus/cryptomus-gateway.ts';
import type { GatewayDeps, PaymentGateway } from './gateway.ts';
import { createPayPalGateway } from './paypal/paypal-gateway.ts';
import { createStripeGateway } from './stripe/stripe-gateway.ts';

/** How each real gateway's adapter is made from its settings (shared/billing/gateway-settings.ts). */
export const GATEWAY_FACTORIES: Partial<{
  [G in RealGatewayName]: (settings: GatewaySettingsOf[G], deps: GatewayDeps) => PaymentGateway;
}> = {
  appstore: createAppStoreGateway,
  cryptomus: createCryptomusGateway,
  paypal: createPayPalGateway,
  stripe: createStripeGateway,
};
