import sharp from 'sharp';
import { mediaPath } from '../../platform/storage/storage-plugin.ts';

// Smaller copies of an uploaded image, so a phone downloads what its screen shows (the public
// pages' `srcset`, issue 23). Each is the same WebP at a narrower width, stored beside the
// image under its key with the width added.

/** The widths made below the image's own (which stays the largest candidate). */
export const VARIANT_WIDTHS = [480, 960, 1440] as const;

export function variantKey(storageKey: string, width: number): string {
  return storageKey.replace(/\.webp$/, `-${width}w.webp`);
}

/** The narrower copies of a re-encoded image, by width. */
export async function imageVariants(
  image: Buffer,
  width: number,
): Promise<{ width: number; data: Buffer }[]> {
  const widths = VARIANT_WIDTHS.filter((candidate) => candidate < width);
  return Promise.all(
    widths.map(async (target) => ({
      width: target,
      data: await sharp(image).resize({ width: target }).webp({ quality: 82 }).toBuffer(),
    })),
  );
}

/** `srcset` of a stored image: its copies and itself. */
export function srcsetOf(row: { storageKey: string; width: number; variants: number[] }): string {
  return [
    ...row.variants.map((width) => `${mediaPath(variantKey(row.storageKey, width))} ${width}w`),
    `${mediaPath(row.storageKey)} ${row.width}w`,
  ].join(', ');
}
