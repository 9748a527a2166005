import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../http/types.ts';
import type { BillingClock } from '../platform/payments/billing-clock.ts';
import type { CardVault, PaymentGateway } from '../platform/payments/gateway.ts';
import { PaymentGateways } from '../platform/payments/payments-plugin.ts';
import { createSandboxGateway, WEBHOOK_URL } from '../platform/payments/sandbox/sandbox-gateway.ts';
import { createTestApp } from './test-app.ts';

// The sandbox's own tests: a test app with a sandbox of its own (the app's is off), its
// webhooks taken by a stand-in that accepts them all (what billing makes of them is
// billing's tests' business), and the card form's tokenizer.

export interface SandboxKit {
  app: App;
  gateway: PaymentGateway;
  cards: CardVault;
  clock: BillingClock;
  /** The token request as the card form sends it; each from its own address. */
  tokenize(payload: object, remoteAddress?: string): Promise<LightMyRequestResponse>;
  /** A card token for a number (expiring 12/2040). */
  tokenFor(number: string): Promise<string>;
}

export const cardDetails = (number: string) => ({
  number,
  exp_month: 12,
  exp_year: 2040,
  cvc: '123',
  name: 'Test Person',
});

export async function openSandbox(): Promise<SandboxKit> {
  let gateway: PaymentGateway | undefined;
  const { app } = await createTestApp({ BILLING_SANDBOX: 'false' }, async (scope) => {
    if (!scope.hasDecorator('payments')) scope.decorate('payments', new PaymentGateways());
    gateway = await createSandboxGateway(scope, { webhookSecret: 'whsec_test_0123456789abcdef' });
    scope.post(WEBHOOK_URL, { config: { access: 'own-signature', crossSitePost: true } }, () => ({
      received: true,
    }));
  });
  if (!gateway?.cards) throw new Error('the sandbox keeps cards');
  let address = 0;
  const tokenize = (payload: object, remoteAddress?: string) => {
    address += 1;
    return app.inject({
      method: 'POST',
      url: '/sandbox/v1/tokens',
      remoteAddress: remoteAddress ?? `10.1.${Math.floor(address / 250)}.${address % 250}`,
      payload,
    });
  };
  return {
    app,
    gateway,
    cards: gateway.cards,
    clock: app.payments.clock,
    tokenize,
    async tokenFor(number) {
      const response = await tokenize(cardDetails(number));
      if (response.statusCode !== 200) throw new Error(`tokenize ${number}: ${response.body}`);
      return response.json<{ id: string }>().id;
    },
  };
}
