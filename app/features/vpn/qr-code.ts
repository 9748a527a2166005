/** What the phone apps scan: a `.conf` as a QR code. */
export type QrLevel = 'L' | 'M';

/**
 * Above this many characters the QR code drops to level L. An IPv4-only `.conf` (about 250
 * characters) stays at M; one with IPv6 addresses and a host name as endpoint (about 305)
 * would need version 12 at M and fits version 11 at L. Fewer, larger modules are what a
 * phone's camera needs off a laptop screen, and a screen is no worn label: L's 7 % repair
 * is enough there.
 */
export const QR_LONG_TEXT = 300;

export function qrErrorCorrection(text: string): QrLevel {
  return text.length > QR_LONG_TEXT ? 'L' : 'M';
}

/** The QR code of `text` as SVG markup; the encoder loads with the first code shown. */
export async function qrSvg(text: string): Promise<string> {
  const qrcode = await import('qrcode');
  return qrcode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: qrErrorCorrection(text),
    margin: 2,
  });
}
