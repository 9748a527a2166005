import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  blogCategoryEndpoints,
  CONTENT_MESSAGES as M,
  postEndpoints,
} from '#shared/contracts/admin/content.ts';
import {
  MEDIA_MESSAGES,
  mediaEndpoints,
  mediaUseText,
} from '#shared/contracts/admin/content-media.ts';
import {
  auditLog,
  contentMedia,
  contentMediaUses,
  contentTranslations,
} from '../../db/schema/index.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { srcsetOf } from './media-variants.ts';

// Issue 22 must-show 3: the media library through real HTTP (a listening server, the
// platform's fetch and FormData) with real images made by sharp.
const { app } = await createTestApp();
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const admin = await signedInUser(app, { role: 'ADMIN' });
const author = await signedInUser(app, { role: 'AUTHOR' });
const customer = await signedInUser(app, { role: 'USER' });

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions.
  body: any;
}

async function send(
  method: 'GET' | 'POST',
  path: string,
  cookie: string,
  body?: FormData | Record<string, unknown>,
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-requested-with': 'fetch', cookie };
  let payload: RequestInit['body'];
  if (body instanceof FormData) payload = body;
  else if (body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${origin}${path}`, { method, headers, body: payload });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const png = (width: number, height: number, background = '#3355ff') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#ff8800' } })
    .jpeg()
    .toBuffer();

function form(file: Buffer | undefined, alt: string | undefined, name = 'router.png') {
  const data = new FormData();
  if (alt !== undefined) data.append('alt', alt);
  if (file) data.append('image', new Blob([new Uint8Array(file)], { type: 'image/png' }), name);
  return data;
}

async function upload(file: Buffer, alt: string, cookie = admin.cookie, name = 'router.png') {
  return send('POST', mediaEndpoints.upload.url, cookie, form(file, alt, name));
}

async function uploaded(alt: string, name = 'picture.png') {
  const answer = await upload(await png(320, 200), alt, admin.cookie, name);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.media as { media_id: number; url: string; alt: string };
}

async function audited(id: number, action: string) {
  return app.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.subjectType, 'content_media'),
        eq(auditLog.subjectId, String(id)),
        eq(auditLog.action, action),
      ),
    );
}

/** A PNG whose header claims `width` × `height`: a tiny file that would decode huge. */
async function bomb(width: number, height: number): Promise<Buffer> {
  const file = Buffer.from(await png(1, 1));
  file.writeUInt32BE(width, 16);
  file.writeUInt32BE(height, 20);
  file.writeUInt32BE(crc32(file.subarray(12, 29)), 29);
  return file;
}

describe('uploading an image', () => {
  it('re-encodes it as WebP, keeps its ratio within 2000 px wide, and audits it', async () => {
    const answer = await upload(await png(3000, 1500), 'A map of our servers', admin.cookie);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const media = answer.body.media;
    expect(media).toMatchObject({
      alt: 'A map of our servers',
      original_name: 'router.png',
      width: 2000,
      height: 1000,
      uses: 0,
    });
    expect(media.url).toMatch(/^\/media\/content\/[\w-]{22}\.webp$/);

    const served = await fetch(`${origin}${media.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(media.bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({
      format: 'webp',
      width: 2000,
      height: 1000,
    });
    expect(await audited(media.media_id, 'content.media_uploaded')).toHaveLength(1);
  });

  it('stores narrower copies for smaller screens, and deletes them with the image', async () => {
    const answer = await upload(await png(1600, 800), 'The fleet', admin.cookie);
    expect(answer.status).toBe(201);
    const media = answer.body.media as { media_id: number; url: string };
    const [row] = await app.db
      .select()
      .from(contentMedia)
      .where(eq(contentMedia.id, media.media_id));
    expect(row?.variants).toEqual([480, 960, 1440]);
    const copies = [480, 960, 1440].map((width) => media.url.replace(/\.webp$/, `-${width}w.webp`));
    for (const [index, url] of copies.entries()) {
      const served = await fetch(`${origin}${url}`);
      expect(served.status, url).toBe(200);
      const size = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(size).toMatchObject({ format: 'webp', width: [480, 960, 1440][index] });
    }
    expect(srcsetOf(row as NonNullable<typeof row>)).toBe(
      [
        ...copies.map((url, index) => `${url} ${[480, 960, 1440][index]}w`),
        `${media.url} 1600w`,
      ].join(', '),
    );
    const deleted = await send('POST', mediaEndpoints.delete.url, admin.cookie, {
      media_id: media.media_id,
    });
    expect(deleted.status).toBe(200);
    for (const url of [media.url, ...copies]) {
      expect((await fetch(`${origin}${url}`)).status, url).toBe(404);
    }
  });

  it('keeps a smaller JPEG at its own size', async () => {
    const answer = await upload(await jpeg(800, 600), 'A laptop', admin.cookie, 'laptop.jpg');
    expect(answer.status).toBe(201);
    expect(answer.body.media).toMatchObject({
      width: 800,
      height: 600,
      original_name: 'laptop.jpg',
    });
  });

  it('refuses a file that is not an image, or an SVG, under the image field', async () => {
    const text = await upload(Buffer.from('<?php echo 1; ?>'.repeat(50)), 'Fake', admin.cookie);
    expect(text.status).toBe(422);
    expect(text.body.errors_validation).toEqual({ image: [M.notAnImage] });
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const refused = await upload(svg, 'Vector', admin.cookie, 'a.svg');
    expect(refused.status).toBe(422);
    expect(refused.body.errors_validation).toEqual({ image: [M.notAnImage] });
  });

  it('refuses a decompression bomb before decoding it', async () => {
    const answer = await upload(await bomb(20_000, 20_000), 'Huge', admin.cookie);
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ image: [MEDIA_MESSAGES.tooManyPixels] });
  });

  it('refuses more than 10 MB with a message on the image field', async () => {
    const big = Buffer.concat([await png(10, 10), Buffer.alloc(10 * 1024 * 1024 + 1)]);
    const answer = await upload(big, 'Too big', admin.cookie);
    expect(answer.status).toBe(413);
    expect(answer.body.errors_validation).toEqual({ image: [MEDIA_MESSAGES.tooLarge] });
  });

  it('requires the alt text, and the image', async () => {
    const file = await png(40, 40);
    for (const alt of [undefined, '', '   ']) {
      const answer = await send('POST', mediaEndpoints.upload.url, admin.cookie, form(file, alt));
      expect(answer.status).toBe(422);
      expect(answer.body.errors_validation).toEqual({ alt: [M.altRequired] });
    }
    const long = await upload(file, 'x'.repeat(301), admin.cookie);
    expect(long.body.errors_validation).toEqual({ alt: ['input_errors.field_is_too_long'] });
    const none = await send('POST', mediaEndpoints.upload.url, admin.cookie, form(undefined, 'A'));
    expect(none.status).toBe(422);
    expect(none.body.errors_validation).toEqual({ image: ['input_errors.field_is_required'] });
    const json = await send('POST', mediaEndpoints.upload.url, admin.cookie, { alt: 'A' });
    expect(json.status).toBe(422);
  });
});

describe('the library', () => {
  it('lists the newest first, and finds by alt text or file name', async () => {
    const older = await uploaded('Older lighthouse', 'lighthouse-1.png');
    const newer = await uploaded('Newer lighthouse', 'lighthouse-2.png');
    const byAlt = await send('GET', `${mediaEndpoints.list.url}?search=lighthouse`, admin.cookie);
    expect(byAlt.status).toBe(200);
    expect(byAlt.body.items.map((m: { media_id: number }) => m.media_id)).toEqual([
      newer.media_id,
      older.media_id,
    ]);
    expect(byAlt.body.controls).toMatchObject({ page: 1, total: 2 });
    const byName = await send('GET', `${mediaEndpoints.list.url}?search=house-2.PNG`, admin.cookie);
    expect(byName.body.items.map((m: { media_id: number }) => m.media_id)).toEqual([
      newer.media_id,
    ]);
    const paged = await send('GET', `${mediaEndpoints.list.url}?per_page=1&page=2`, admin.cookie);
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.controls.per_page).toBe(1);
  });

  it('changes the alt text, audited', async () => {
    const media = await uploaded('First words');
    const answer = await send('POST', mediaEndpoints.update.url, admin.cookie, {
      media_id: media.media_id,
      alt: '  Better words ',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, media: { alt: 'Better words' } });
    expect(await audited(media.media_id, 'content.media_updated')).toHaveLength(1);
    const blank = await send('POST', mediaEndpoints.update.url, admin.cookie, {
      media_id: media.media_id,
      alt: ' ',
    });
    expect(blank.status).toBe(422);
    const unknown = await send('POST', mediaEndpoints.update.url, admin.cookie, {
      media_id: 999_999,
      alt: 'Nothing',
    });
    expect(unknown.body.errors_validation).toEqual({ media_id: [M.unknownMedia] });
  });
});

describe('one image', () => {
  it('is read as the library lists it, and is not found once deleted', async () => {
    const media = await uploaded('A chosen sharing image');
    const view = (id: number) =>
      send('GET', `${mediaEndpoints.view.url}?media_id=${id}`, admin.cookie);
    const answer = await view(media.media_id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      media: { media_id: media.media_id, alt: 'A chosen sharing image', url: media.url, uses: 0 },
    });
    await send('POST', mediaEndpoints.delete.url, admin.cookie, { media_id: media.media_id });
    expect((await view(media.media_id)).status).toBe(404);
  });
});

describe('deleting an image', () => {
  it('deletes an unused image and its file', async () => {
    const media = await uploaded('Unused');
    const answer = await send('POST', mediaEndpoints.delete.url, admin.cookie, {
      media_id: media.media_id,
    });
    expect(answer.status).toBe(200);
    expect((await fetch(`${origin}${media.url}`)).status).toBe(404);
    expect(await audited(media.media_id, 'content.media_deleted')).toHaveLength(1);
  });

  it('refuses an image in use, saying where, until staff confirm; the body stays as it was', async () => {
    const media = await uploaded('Our router');
    const body = `Set it up like this:\n\n![Our router](${media.url})`;
    const created = await send('POST', postEndpoints.create.url, admin.cookie, {
      lang: 'en',
      name: 'Router setup',
      url: `router-setup-${Date.now().toString(36)}`,
      contents: body,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = await send('GET', `${mediaEndpoints.list.url}?search=Our router`, admin.cookie);
    expect(list.body.items[0]).toMatchObject({ media_id: media.media_id, uses: 1 });

    const refused = await send('POST', mediaEndpoints.delete.url, admin.cookie, {
      media_id: media.media_id,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors_validation).toEqual({
      in_use_confirmed: [
        M.mediaInUse,
        mediaUseText({ kind: 'post', lang: 'en', name: 'Router setup' }),
      ],
    });
    expect((await fetch(`${origin}${media.url}`)).status).toBe(200);

    const confirmed = await send('POST', mediaEndpoints.delete.url, admin.cookie, {
      media_id: media.media_id,
      in_use_confirmed: true,
    });
    expect(confirmed.status).toBe(200);
    expect(
      await app.db
        .select()
        .from(contentMediaUses)
        .where(eq(contentMediaUses.mediaId, media.media_id)),
    ).toEqual([]);
    const [stored] = await app.db
      .select({ body: contentTranslations.bodyMd })
      .from(contentTranslations)
      .where(eq(contentTranslations.itemId, created.body.item.id));
    expect(stored?.body).toBe(body);
    const [row] = await audited(media.media_id, 'content.media_deleted');
    expect(row?.data).toMatchObject({ uses: ['post:en:Router setup'] });
  });

  it('counts a cover and an SEO image as uses, and clears them once deleted', async () => {
    const media = await uploaded('Cover picture');
    const category = await send('POST', blogCategoryEndpoints.create.url, admin.cookie, {
      lang: 'en',
      name: 'Guides with a picture',
      url: `guides-${Date.now().toString(36)}`,
      og_image_id: media.media_id,
    });
    expect(category.status, JSON.stringify(category.body)).toBe(201);
    const post = await send('POST', postEndpoints.create.url, admin.cookie, {
      lang: 'en',
      name: 'With a cover',
      url: `with-a-cover-${Date.now().toString(36)}`,
      cover_image_id: media.media_id,
    });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const refused = await send('POST', mediaEndpoints.delete.url, admin.cookie, {
      media_id: media.media_id,
    });
    expect(refused.body.errors_validation.in_use_confirmed).toEqual([
      M.mediaInUse,
      'post:en:With a cover',
      'blog_category:en:Guides with a picture',
    ]);
    // Taking it off pages is for someone who may publish: not an author, by default.
    const byAuthor = await send('POST', mediaEndpoints.delete.url, author.cookie, {
      media_id: media.media_id,
      in_use_confirmed: true,
    });
    expect(byAuthor.status).toBe(403);
    expect(byAuthor.body.errors_info).toEqual([M.liveSettingsNotAllowed]);
    const confirmed = await send('POST', mediaEndpoints.delete.url, admin.cookie, {
      media_id: media.media_id,
      in_use_confirmed: true,
    });
    expect(confirmed.status).toBe(200);
    const view = await send(
      'GET',
      `${postEndpoints.view.url}?id=${post.body.item.id}`,
      admin.cookie,
    );
    expect(view.body.item.cover_image_id).toBeNull();
  });
});

describe('who may use the library', () => {
  it('lets an author upload, change and delete', async () => {
    const answer = await upload(await png(64, 64), 'By an author', author.cookie);
    expect(answer.status).toBe(201);
    const id = answer.body.media.media_id;
    const listed = await send('GET', mediaEndpoints.list.url, author.cookie);
    expect(listed.status).toBe(200);
    const changed = await send('POST', mediaEndpoints.update.url, author.cookie, {
      media_id: id,
      alt: 'Still by an author',
    });
    expect(changed.status).toBe(200);
    const deleted = await send('POST', mediaEndpoints.delete.url, author.cookie, { media_id: id });
    expect(deleted.status).toBe(200);
  });

  it('refuses a customer every call', async () => {
    const file = await png(16, 16);
    expect((await upload(file, 'Mine', customer.cookie)).status).toBe(403);
    expect((await send('GET', mediaEndpoints.list.url, customer.cookie)).status).toBe(403);
    const update = await send('POST', mediaEndpoints.update.url, customer.cookie, {
      media_id: 1,
      alt: 'x',
    });
    expect(update.status).toBe(403);
    const remove = await send('POST', mediaEndpoints.delete.url, customer.cookie, { media_id: 1 });
    expect(remove.status).toBe(403);
  });
});
