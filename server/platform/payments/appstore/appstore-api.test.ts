import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppStoreSettings } from '#shared/billing/gateway-settings.ts';
import { createApiKey } from '../../../test/appstore-standin/api-key.ts';
import {
  type AppStoreStandin,
  startAppStoreStandin,
} from '../../../test/appstore-standin/appstore-standin.ts';
import { jwsPayload, signJws } from '../../../test/appstore-standin/jws.ts';
import { createSigningChain } from '../../../test/appstore-standin/test-certificates.ts';
import { GatewayRequestError, GatewayUnavailable } from '../gateway.ts';
import { AppStoreApi, callApple } from './appstore-api.ts';
import { createVerifier, verified } from './signed-data.ts';

// Apple's own client (AppStoreServerAPIClient) over real HTTP to the stand-in, and Apple's
// SignedDataVerifier against a test chain shaped like Apple's.

let standin: AppStoreStandin;
let settings: AppStoreSettings;

beforeAll(async () => {
  standin = await startAppStoreStandin();
  settings = standin.settings();
});
afterAll(() => standin.close());

describe('the App Store Server API through Apple’s client', () => {
  it('reads statuses, a transaction, the history and refunds with a bearer token Apple takes', async () => {
    const api = new AppStoreApi(settings);
    const token = randomUUID();
    const bought = await standin.purchase({
      appAccountToken: token,
      productId: 'com.shieldline.vpn.monthly',
    });
    await standin.renew(bought.originalTransactionId);
    const verifier = createVerifier(settings);

    const statuses = await api.getAllSubscriptionStatuses(bought.originalTransactionId);
    expect(statuses).toMatchObject({ environment: 'Sandbox', bundleId: 'com.shieldline.vpn' });
    const last = statuses.data?.[0]?.lastTransactions?.[0];
    expect(last).toMatchObject({ status: 1, originalTransactionId: bought.originalTransactionId });
    const latest = await verifier.verifyAndDecodeTransaction(last?.signedTransactionInfo ?? '');
    expect(latest).toMatchObject({
      transactionReason: 'RENEWAL',
      appAccountToken: token,
      price: 12_990,
      currency: 'USD',
    });
    const renewal = await verifier.verifyAndDecodeRenewalInfo(last?.signedRenewalInfo ?? '');
    expect(renewal).toMatchObject({ autoRenewStatus: 1, appAccountToken: token });

    const info = await api.getTransactionInfo(bought.transactionId);
    const first = await verifier.verifyAndDecodeTransaction(info.signedTransactionInfo ?? '');
    expect(first.transactionId).toBe(bought.transactionId);

    const history = await api.getTransactionHistory(bought.transactionId, null, {});
    expect(history.signedTransactions).toHaveLength(2);
    await standin.refund(latest.transactionId ?? '');
    const refunds = await api.getRefundHistory(bought.transactionId, null);
    expect(refunds.signedTransactions).toHaveLength(1);

    expect(standin.refusedRequests).toEqual([]);
    expect(standin.apiRequests).toContain(
      `/inApps/v1/subscriptions/${bought.originalTransactionId}`,
    );
  });

  it('is refused with another key, and says so as unavailable (a retry after the fix helps)', async () => {
    const bought = await standin.purchase({ productId: 'com.shieldline.vpn.yearly' });
    const stranger = createApiKey();
    const api = new AppStoreApi({
      ...settings,
      keyId: stranger.keyId,
      privateKey: stranger.privateKeyPem,
    });
    const call = callApple('transaction', () => api.getTransactionInfo(bought.transactionId));
    await expect(call).rejects.toBeInstanceOf(GatewayUnavailable);
    expect(standin.refusedRequests.at(-1)).toMatch(/bad signature/);
    const otherApp = new AppStoreApi({ ...settings, bundleId: 'com.example.other' });
    await expect(
      callApple('transaction', () => otherApp.getTransactionInfo(bought.transactionId)),
    ).rejects.toBeInstanceOf(GatewayUnavailable);
    expect(standin.refusedRequests.at(-1)).toMatch(/wrong bundle id/);
  });

  it('maps an unknown id to not_found and an unreachable host to unavailable', async () => {
    const api = new AppStoreApi(settings);
    const unknown = callApple('transaction', () => api.getTransactionInfo('2000000000000001'));
    await expect(unknown).rejects.toMatchObject({ kind: 'not_found' });
    const malformed = callApple('transaction', () => api.getTransactionInfo('not-a-number'));
    await expect(malformed).rejects.toBeInstanceOf(GatewayRequestError);
    const gone = new AppStoreApi({ ...settings, apiUrl: 'http://127.0.0.1:9' });
    await expect(
      callApple('transaction', () => gone.getTransactionInfo('2000000000000001')),
    ).rejects.toBeInstanceOf(GatewayUnavailable);
  });
});

describe('signed data verified up to the configured root', () => {
  async function signedTransaction() {
    const bought = await standin.purchase({
      appAccountToken: randomUUID(),
      productId: 'com.shieldline.vpn.monthly',
    });
    return bought.signedTransaction;
  }
  const check = (jws: string, overrides: Partial<AppStoreSettings> = {}) =>
    verified('app', 'transaction', () =>
      createVerifier({ ...settings, ...overrides }).verifyAndDecodeTransaction(jws),
    );

  it('takes the stand-in’s chain', async () => {
    const jws = await signedTransaction();
    await expect(check(jws)).resolves.toMatchObject({ bundleId: 'com.shieldline.vpn' });
  });

  it('refuses a chain not rooted in the configured root, even one carrying Apple’s markers', async () => {
    const forger = createSigningChain({ name: 'Forger' });
    const payload = jwsPayload(await signedTransaction());
    const forged = signJws(payload, forger.leafKeyPem, { x5c: forger.x5c });
    await expect(check(forged)).rejects.toMatchObject({ kind: 'invalid_request' });
    // The forger's own root would take it: the root is what decides.
    await expect(check(forged, { rootCertificates: forger.rootPem })).resolves.toBeTruthy();
  });

  it('refuses a chain without Apple’s intermediate and leaf markers, even from the trusted root', async () => {
    const plain = createSigningChain({ markers: false });
    const forged = signJws(jwsPayload(await signedTransaction()), plain.leafKeyPem, {
      x5c: plain.x5c,
    });
    await expect(check(forged, { rootCertificates: plain.rootPem })).rejects.toThrow(
      /VERIFICATION_FAILURE/,
    );
  });

  it('refuses a tampered payload, a header without the chain, and data for another app', async () => {
    const jws = await signedTransaction();
    const [head, , signature] = jws.split('.');
    const changed = { ...jwsPayload(jws), price: 10 };
    const tampered = `${head}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
    await expect(check(tampered)).rejects.toThrow(/VERIFICATION_FAILURE/);
    const bare = signJws(jwsPayload(jws), standin.chain.leafKeyPem);
    // The library reports a missing or short x5c as an invalid certificate.
    await expect(check(bare)).rejects.toThrow(/INVALID_CERTIFICATE/);
    await expect(check(jws, { bundleId: 'com.example.other' })).rejects.toThrow(
      /INVALID_APP_IDENTIFIER/,
    );
    await expect(check(jws, { environment: 'Production', appAppleId: 1 })).rejects.toThrow(
      /INVALID_ENVIRONMENT/,
    );
  });

  it('refuses data signed while the chain was not yet valid', async () => {
    const later = createSigningChain({ validFrom: new Date(Date.now() + 30 * 86_400_000) });
    const jws = signJws(jwsPayload(await signedTransaction()), later.leafKeyPem, {
      x5c: later.x5c,
    });
    await expect(check(jws, { rootCertificates: later.rootPem })).rejects.toThrow(
      /INVALID_CERTIFICATE/,
    );
  });

  it('needs the app’s Apple ID in production, and a PEM root', () => {
    expect(() => createVerifier({ ...settings, environment: 'Production' })).toThrow(
      /APPSTORE_APP_APPLE_ID/,
    );
    expect(() => createVerifier({ ...settings, rootCertificates: 'nothing' })).toThrow(/PEM/);
  });
});
