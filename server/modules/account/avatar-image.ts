import sharp from 'sharp';

/** Side of the square avatar we keep; the header shows it at 32–40 px, at 3x density. */
export const AVATAR_SIDE = 256;

// Formats a browser can produce from a camera or a screenshot. SVG is refused: it is a
// document that can carry script, not a picture.
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif', 'heif', 'avif', 'tiff']);

// A small file can decode into a huge bitmap (a decompression bomb): 40 megapixels is more
// than any phone camera and far less than the memory that would hurt.
const MAX_INPUT_PIXELS = 40_000_000;

export class NotAnImageError extends Error {}

/**
 * The uploaded bytes as our avatar: checked by decoding the content (never by the file's
 * name or declared type), turned upright, cropped to a square and re-encoded as WebP. The
 * re-encoding drops metadata (EXIF location) and anything else that rode along in the file.
 */
export async function toAvatar(upload: Buffer): Promise<Buffer> {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };
  let format: string | undefined;
  try {
    format = (await sharp(upload, options).metadata()).format;
  } catch {
    throw new NotAnImageError();
  }
  if (!format || !ACCEPTED.has(format)) throw new NotAnImageError();
  try {
    return await sharp(upload, { ...options, animated: false })
      .rotate()
      .resize(AVATAR_SIDE, AVATAR_SIDE, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new NotAnImageError();
  }
}
