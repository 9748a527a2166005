import type { Locator } from '@playwright/test';
import jsQR from 'jsqr';
import { generate } from 'otplib';

// The user's phone, built from libraries the product does not use: the QR image the page
// shows is decoded from its pixels with jsQR, and codes are computed with otplib (the
// product uses otpauth and qrcode). A journey that passes shows the product speaks the
// standards (otpauth:// key URI, RFC 6238), not merely agrees with itself.

/** An otpauth:// key URI, read the way authenticator apps read it. */
export interface AuthenticatorKey {
  type: string;
  issuer: string;
  /** The label's issuer prefix, which apps compare with `issuer`. */
  labelIssuer: string;
  account: string;
  secret: string;
  algorithm: string;
  digits: number;
  period: number;
}

// The page's DOM as far as the scan uses it (e2e code compiles without the DOM library).
interface PageImage {
  decode(): Promise<void>;
  ownerDocument: { createElement(tag: 'canvas'): PageCanvas };
}
interface PageCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): PageContext | null;
}
interface PageContext {
  fillStyle: string;
  imageSmoothingEnabled: boolean;
  fillRect(x: number, y: number, width: number, height: number): void;
  drawImage(image: PageImage, x: number, y: number, width: number, height: number): void;
  getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray };
}

/** Scans a QR <img> (an SVG) on the page: drawn to a canvas there, its pixels decoded here. */
export async function scanQr(image: Locator): Promise<string> {
  const { size, rgba } = await image.evaluate(async (element) => {
    const img = element as unknown as PageImage;
    await img.decode();
    // Drawn large and without smoothing, on white, like a camera frame of a screen.
    const size = 480;
    const canvas = img.ownerDocument.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size, size);
    context.imageSmoothingEnabled = false;
    context.drawImage(img, 0, 0, size, size);
    const bytes = context.getImageData(0, 0, size, size).data;
    let binary = '';
    for (let at = 0; at < bytes.length; at += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    }
    return { size, rgba: btoa(binary) };
  });
  const pixels = new Uint8ClampedArray(Buffer.from(rgba, 'base64'));
  const code = jsQR(pixels, size, size);
  if (!code) throw new Error('the image holds no readable QR code');
  return code.data;
}

/** Parses an otpauth:// key URI with the defaults apps apply to missing parameters. */
export function parseKeyUri(uri: string): AuthenticatorKey {
  const url = new URL(uri);
  if (url.protocol !== 'otpauth:') throw new Error(`not a key URI: ${uri}`);
  const label = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const colon = label.indexOf(':');
  const params = url.searchParams;
  return {
    type: url.hostname,
    issuer: params.get('issuer') ?? '',
    labelIssuer: colon < 0 ? '' : label.slice(0, colon),
    account: colon < 0 ? label : label.slice(colon + 1),
    secret: params.get('secret') ?? '',
    algorithm: (params.get('algorithm') ?? 'SHA1').toUpperCase(),
    digits: Number(params.get('digits') ?? 6),
    period: Number(params.get('period') ?? 30),
  };
}

/** The code the phone shows for `key`, `offset` time steps from now. */
export function codeFor(key: AuthenticatorKey, offset = 0): Promise<string> {
  const algorithm = key.algorithm.toLowerCase() as 'sha1' | 'sha256' | 'sha512';
  return generate({
    secret: key.secret,
    algorithm,
    digits: key.digits,
    period: key.period,
    epoch: Math.floor(Date.now() / 1000) + offset * key.period,
  });
}

/** Scans the QR and returns the key it holds. */
export async function addToAuthenticator(image: Locator): Promise<AuthenticatorKey> {
  return parseKeyUri(await scanQr(image));
}
