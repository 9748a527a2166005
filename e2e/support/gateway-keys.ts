// The keys the gateways server and the providers' stand-ins share in the Playwright run
// (playwright.config.ts gives them to the app, e2e/support/*-standin.ts to the stand-ins).
// They sign nothing outside these tests.
export const E2E_GATEWAY_KEYS = {
  stripe: {
    secretKey: 'sk_test_e2e_standin_0123456789',
    webhookSecret: 'whsec_e2e_standin_0123456789abcdef',
  },
  paypal: {
    clientId: 'e2e-paypal-client-id',
    clientSecret: 'e2e-paypal-client-secret-0123456789',
    webhookId: 'E2E0WEBHOOK0PAYPAL01',
  },
  cryptomus: {
    merchantId: 'e2e00000-c0de-4a1e-9c1a-000000000006',
    paymentKey: 'e2e-cryptomus-payment-key-0123456789abcdef',
  },
} as const;

/** Where a stand-in posts its webhooks: the gateways server's route for that gateway. */
export function appWebhook(gateway: string): string {
  return `${process.env.E2E_APP_URL ?? 'http://127.0.0.1:4317'}/api/public/v1/webhooks/${gateway}`;
}

/** A stand-in process ends cleanly when Playwright stops it. */
export function closeOnSignal(standIn: { close(): Promise<unknown> }): void {
  const stop = () => void standIn.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
