import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import jsrsasign from 'jsrsasign';

// A certificate chain shaped like Apple's for signing App Store data in tests: a root the
// operator would configure, an intermediate carrying Apple's "WWDR intermediate" marker
// (1.2.840.113635.100.6.2.1) and a leaf carrying the "App Store receipt signing" marker
// (1.2.840.113635.100.6.11.1), all EC P-256, as SignedDataVerifier demands of the real one.
// No OCSP address: the stand-in has no responder, so its verifier runs with online checks off.

const INTERMEDIATE_MARKER = '1.2.840.113635.100.6.2.1';
const LEAF_MARKER = '1.2.840.113635.100.6.11.1';
/** DER NULL: the markers' values do not matter, their presence does. */
const NULL_VALUE = '0500';

export interface SigningChain {
  /** The root as the operator's PEM text (APPSTORE_ROOT_CERTIFICATES). */
  rootPem: string;
  /** Leaf, intermediate, root as DER base64: a JWS header's `x5c`. */
  x5c: [string, string, string];
  /** The leaf's private key (PKCS#8 PEM): it signs the JWS. */
  leafKeyPem: string;
}

interface KeyPair {
  publicPem: string;
  privatePem: string;
}

function p256(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** `YYMMDDhhmmssZ`, the UTCTime jsrsasign writes. */
function utcTime(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`;
}

function certificate(options: {
  serial: number;
  subject: string;
  issuer: string;
  subjectKey: string;
  issuerKey: string;
  ca: boolean;
  marker: string | null;
  notBefore: Date;
  notAfter: Date;
}): string {
  const ext: unknown[] = [
    { extname: 'basicConstraints', critical: true, cA: options.ca },
    {
      extname: 'keyUsage',
      critical: true,
      names: options.ca ? ['keyCertSign', 'cRLSign'] : ['digitalSignature'],
    },
  ];
  if (options.marker) ext.push({ extname: options.marker, extn: NULL_VALUE });
  const cert = new jsrsasign.KJUR.asn1.x509.Certificate({
    version: 3,
    serial: { int: options.serial },
    issuer: { str: options.issuer },
    subject: { str: options.subject },
    notbefore: utcTime(options.notBefore),
    notafter: utcTime(options.notAfter),
    sbjpubkey: options.subjectKey,
    ext,
    sigalg: 'SHA256withECDSA',
    cakey: options.issuerKey,
  } as never);
  return cert.getPEM();
}

const derBase64 = (pem: string) => new X509Certificate(pem).raw.toString('base64');

/**
 * A new root → intermediate → leaf chain. `markers: false` leaves Apple's markers out (a chain
 * a real CA could have issued to anyone: the verifier must refuse it).
 */
export function createSigningChain(
  options: { name?: string; markers?: boolean; validFrom?: Date; validTo?: Date } = {},
): SigningChain {
  const name = options.name ?? 'Stand-in';
  const markers = options.markers ?? true;
  const notBefore = options.validFrom ?? new Date(Date.now() - 86_400_000);
  const notAfter = options.validTo ?? new Date(Date.now() + 5 * 365 * 86_400_000);
  const root = p256();
  const intermediate = p256();
  const leaf = p256();
  const rootName = `/C=US/O=${name} Apple Inc./CN=${name} Apple Root CA - G3`;
  const intermediateName = `/C=US/O=${name} Apple Inc./OU=G6/CN=${name} Apple Worldwide Developer Relations Certification Authority`;
  const leafName = `/C=US/O=${name} Apple Inc./CN=${name} Prod ECC Mac App Store and iTunes Store Receipt Signing`;
  const dates = { notBefore, notAfter };
  const rootPem = certificate({
    serial: 1,
    subject: rootName,
    issuer: rootName,
    subjectKey: root.publicPem,
    issuerKey: root.privatePem,
    ca: true,
    marker: null,
    ...dates,
  });
  const intermediatePem = certificate({
    serial: 2,
    subject: intermediateName,
    issuer: rootName,
    subjectKey: intermediate.publicPem,
    issuerKey: root.privatePem,
    ca: true,
    marker: markers ? INTERMEDIATE_MARKER : null,
    ...dates,
  });
  const leafPem = certificate({
    serial: 3,
    subject: leafName,
    issuer: intermediateName,
    subjectKey: leaf.publicPem,
    issuerKey: intermediate.privatePem,
    ca: false,
    marker: markers ? LEAF_MARKER : null,
    ...dates,
  });
  return {
    rootPem,
    x5c: [derBase64(leafPem), derBase64(intermediatePem), derBase64(rootPem)],
    leafKeyPem: leaf.privatePem,
  };
}
