import { z } from 'zod';
import { recordId } from '../../validation/record-id.ts';
import { endpoint } from '../endpoint.ts';
import { listResponse } from '../list.ts';
import {
  contentMediaItem,
  mediaDeleteRequest,
  mediaQuery,
  mediaUpdateRequest,
  successResponse,
} from './content.ts';

// Issue 22 must-show 3: the media library staff put images into bodies from. An upload is
// re-encoded on the server like an avatar (its width and height kept) and needs its alt
// text; an image in use is deleted only once staff saw where it is used.

/** At most 10 MB an image (a phone photo is 3–8 MB); checked in the browser before sending. */
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
/** The multipart file field of an upload. */
export const MEDIA_FILE_FIELD = 'image';
/** The multipart text field of an upload: the alternative text, required. */
export const MEDIA_ALT_FIELD = 'alt';
/** The longest alternative text (mediaUploadFields, mediaUpdateRequest). */
export const MEDIA_ALT_MAX = 300;

/** Message keys of the media calls (admin-content-media.json); the rest are content's. */
export const MEDIA_MESSAGES = {
  tooLarge: 'staff_media.errors.too_large',
  tooManyPixels: 'staff_media.errors.too_many_pixels',
} as const;

/** Where an image can be used: an item's translation, a category's, or a main page's SEO. */
export const MEDIA_USE_KINDS = [
  'page',
  'static_page',
  'post',
  'article',
  'faq',
  'blog_category',
  'help_category',
  'main_page',
] as const;
export type MediaUseKind = (typeof MEDIA_USE_KINDS)[number];

/** One place an image is used: a translation (its name), or a main page (its key). */
export interface MediaUse {
  kind: MediaUseKind;
  lang: string;
  name: string;
}

/**
 * The error envelope holds strings only, so a delete refused because the image is in use
 * lists its places under `in_use_confirmed` after the message key, each as
 * `kind:lang:name` (readable as it is; the picker translates the kind and language).
 */
export function mediaUseText(use: MediaUse): string {
  return `${use.kind}:${use.lang}:${use.name}`;
}

export function parseMediaUse(text: string): MediaUse | undefined {
  const match = /^([a-z_]+):([a-z]{2}):(.*)$/s.exec(text);
  if (!match) return undefined;
  const [, kind, lang, name] = match as unknown as [string, string, string, string];
  if (!(MEDIA_USE_KINDS as readonly string[]).includes(kind)) return undefined;
  return { kind: kind as MediaUseKind, lang, name };
}

const staff = { base: 'dashboard', access: { permission: 'content' }, tag: 'media' } as const;

export const mediaResponse = z.object({ media: contentMediaItem });

export const mediaEndpoints = {
  list: endpoint({
    ...staff,
    method: 'GET',
    path: '/media',
    summary: 'The media library, the newest first; search by alt text or file name',
    query: mediaQuery,
    response: listResponse(contentMediaItem),
  }),
  view: endpoint({
    ...staff,
    method: 'GET',
    path: '/media/view',
    summary: 'One image of the library (a stored choice shown again); 404 once deleted',
    query: z.object({ media_id: recordId }),
    response: mediaResponse,
  }),
  upload: endpoint({
    ...staff,
    method: 'POST',
    path: '/media/upload',
    summary:
      'Upload an image (multipart: file `image` ≤ 10 MB, text `alt` required); re-encoded as WebP, its size kept',
    // Multipart only: its fields are read and checked by the handler.
    multipart: true,
    response: mediaResponse,
    status: 201,
  }),
  update: endpoint({
    ...staff,
    method: 'POST',
    path: '/media/update',
    summary: "Change an image's alt text",
    body: mediaUpdateRequest,
    response: successResponse.extend({ media: contentMediaItem }),
  }),
  delete: endpoint({
    ...staff,
    method: 'POST',
    path: '/media/delete',
    summary:
      'Delete an image; in use, refused (422 under in_use_confirmed, listing where) unless confirmed',
    body: mediaDeleteRequest,
    response: successResponse,
  }),
};
