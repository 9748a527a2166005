import { describe, expect, it } from 'vitest';
import { postEndpoints } from '#shared/contracts/admin/content.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { findPublicContent } from './public-content.ts';

// What a public address of content answers: the visitor's language, a moved address, and a
// text not translated yet shown in English and said to be.
const { app } = await createTestApp();
const api = endpointClient(app);
const admin = await signedInUser(app, { role: 'ADMIN' });
const as = { cookie: admin.cookie };
let serial = 0;
const fresh = (stem: string) => `${stem}-${Date.now().toString(36)}-${++serial}`;

const post = (lang: 'en' | 'es', url: string, extra: Record<string, unknown> = {}) => ({
  lang,
  name: 'Public Wi-Fi',
  url,
  contents: 'A café network is shared.',
  state: 'published' as const,
  ...extra,
});

async function createPost(url: string, extra: Record<string, unknown> = {}) {
  const answer = await api(postEndpoints.create, { ...as, body: post('en', url, extra) });
  expect(answer.status, answer.text).toBe(201);
  return answer.data.item;
}

describe('a public address of content', () => {
  it('answers the text in its language, and only while it is live', async () => {
    const url = fresh('wifi');
    const item = await createPost(url);
    const found = await findPublicContent(app.db, ['post'], 'en', url);
    expect(found).toMatchObject({ kind: 'found', fallbackFrom: null });
    expect(found.kind === 'found' && found.item.id).toBe(item.id);
    expect((await findPublicContent(app.db, ['article'], 'en', url)).kind).toBe('missing');
    const draft = fresh('draft');
    await createPost(draft, { state: 'draft' });
    expect((await findPublicContent(app.db, ['post'], 'en', draft)).kind).toBe('missing');
    const ending = fresh('ending');
    await createPost(ending, { unpublish_at: new Date(Date.now() + 60_000).toISOString() });
    const later = new Date(Date.now() + 120_000);
    expect((await findPublicContent(app.db, ['post'], 'en', ending, later)).kind).toBe('missing');
  });

  it('shows the English text where no translation is written yet, and says so', async () => {
    const url = fresh('vpn-basics');
    await createPost(url);
    expect(await findPublicContent(app.db, ['post'], 'es', url)).toMatchObject({
      kind: 'found',
      fallbackFrom: 'en',
      translation: { lang: 'en', slug: url },
    });
  });

  it('moves the visitor to a translation written since, and from an address that changed', async () => {
    const url = fresh('kill-switch');
    const item = await createPost(url);
    const spanish = fresh('interruptor');
    const added = await api(postEndpoints.update, {
      ...as,
      body: { ...post('es', spanish), id: item.id },
    });
    expect(added.status, added.text).toBe(200);
    expect(await findPublicContent(app.db, ['post'], 'es', url)).toEqual({
      kind: 'moved',
      to: `/es/blog/${spanish}`,
    });
    const renamed = fresh('the-kill-switch');
    await api(postEndpoints.update, { ...as, body: { ...post('en', renamed), id: item.id } });
    expect(await findPublicContent(app.db, ['post'], 'en', url)).toEqual({
      kind: 'moved',
      to: `/en/blog/${renamed}`,
    });
  });
});
