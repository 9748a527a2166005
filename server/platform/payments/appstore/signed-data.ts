import { X509Certificate } from 'node:crypto';
import net from 'node:net';
import {
  Environment,
  type JWSRenewalInfoDecodedPayload,
  type JWSTransactionDecodedPayload,
  type ResponseBodyV2DecodedPayload,
  SignedDataVerifier,
  VerificationException,
  VerificationStatus,
} from '@apple/app-store-server-library';
import type { AppStoreSettings } from '#shared/billing/gateway-settings.ts';
import { GatewayRequestError, GatewayUnavailable, WebhookRejected } from '../gateway.ts';

// Everything the App Store signs (notifications, transactions, renewal info, the API's
// answers and what the app sends us) is a JWS whose x5c chain must lead to Apple's root,
// which the operator configures: Apple's library checks the chain, Apple's markers on the
// intermediate and leaf, the signature, and that the data is for our bundle id (and app id
// in production) and environment.

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The operator's PEM text as the DER certificates the verifier takes; throws on a bad one. */
export function rootCertificates(pem: string): Buffer[] {
  const found = pem.match(PEM_CERTIFICATE) ?? [];
  if (found.length === 0) throw new Error('App Store root certificates: no PEM certificate');
  return found.map((block) => new X509Certificate(block).raw);
}

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** A host on this machine: 127.0.0.0/8, ::1 (IPv4-mapped forms too) and localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return LOOPBACK.check(host, 'ipv4');
  if (net.isIPv6(host)) return LOOPBACK.check(host, 'ipv6');
  return false;
}

/**
 * Whether the verifier makes its online checks: OCSP revocation of the chain, and
 * certificate dates judged at the time of checking rather than at the data's signedDate, as
 * Apple recommends. Always on, save against a local stand-in: an `apiUrl` whose host is a
 * loopback address, which has no OCSP responder (there dates are judged at signedDate). An
 * `apiUrl` elsewhere (a proxy, a mistyped setting) keeps them on, so setting it can never
 * turn security checks off for real data, in Production or not.
 */
export function makesOnlineChecks(settings: Pick<AppStoreSettings, 'apiUrl'>): boolean {
  if (settings.apiUrl === undefined) return true;
  let hostname: string;
  try {
    hostname = new URL(settings.apiUrl).hostname;
  } catch {
    return true;
  }
  return !isLoopbackHost(hostname);
}

/** The verifier for our app, its online checks as `makesOnlineChecks` decides. */
export function createVerifier(settings: AppStoreSettings): SignedDataVerifier {
  const production = settings.environment === 'Production';
  if (production && settings.appAppleId === undefined) {
    throw new Error('App Store: the app Apple ID (APPSTORE_APP_APPLE_ID) is needed in Production');
  }
  return new SignedDataVerifier(
    rootCertificates(settings.rootCertificates),
    makesOnlineChecks(settings),
    production ? Environment.PRODUCTION : Environment.SANDBOX,
    settings.bundleId,
    settings.appAppleId,
  );
}

/** Why the library refused: its status's name ("VERIFICATION_FAILURE"), nothing secret. */
function reasonOf(error: VerificationException): string {
  return VerificationStatus[error.status] ?? String(error.status);
}

/**
 * Runs a verification and says what its failure means where it happened: the App Store's
 * OCSP responder out of reach is always "retry later"; otherwise the data is not Apple's, or
 * not for us — a webhook is refused (400), data the app sent is the request's fault, and an
 * answer of the API that does not verify is a failure of the provider (or of our keys).
 */
export async function verified<T>(
  where: 'webhook' | 'app' | 'api',
  what: string,
  verify: () => Promise<T>,
): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    if (!(error instanceof VerificationException)) throw error;
    const reason = `App Store ${what} not verified: ${reasonOf(error)}`;
    if (error.status === VerificationStatus.RETRYABLE_VERIFICATION_FAILURE) {
      throw new GatewayUnavailable(reason, { cause: error });
    }
    if (where === 'webhook') throw new WebhookRejected(reason);
    if (where === 'app') throw new GatewayRequestError('invalid_request', reason);
    throw new GatewayUnavailable(reason, { cause: error });
  }
}

export type AppStoreTransaction = JWSTransactionDecodedPayload;
export type AppStoreRenewalInfo = JWSRenewalInfoDecodedPayload;
export type AppStoreNotification = ResponseBodyV2DecodedPayload;
