import { inArray } from 'drizzle-orm';
import { type ImageBox, type RenderedMarkdown, renderMarkdown } from '#shared/content/markdown.ts';
import type { Database } from '../../db/client.ts';
import { contentMedia, type FaqQuestion } from '../../db/schema/index.ts';
import { mediaKey, mediaPath } from '../../platform/storage/storage-plugin.ts';

/** A translation's body and questions, rendered, with the media they show. */
export interface RenderedBody {
  body: RenderedMarkdown;
  questions: FaqQuestion[];
  /** Our media library's images the body and answers show. */
  mediaIds: number[];
}

/** Every address of our media that a Markdown source names (before rendering, to size them). */
function mediaAddresses(sources: readonly string[]): string[] {
  const found = new Set<string>();
  for (const source of sources) {
    for (const [address] of source.matchAll(/\/media\/[A-Za-z0-9_/.-]+/g)) found.add(address);
  }
  return [...found];
}

/**
 * Renders what staff wrote: the body and each FAQ answer, with the size of each of our
 * images put on its tag (so a page does not shift as they load).
 */
export async function renderBody(
  db: Database,
  lang: string,
  contents: string,
  questions: readonly { question: string; answer: string }[],
  siteHost: string,
): Promise<RenderedBody> {
  const keys = mediaAddresses([contents, ...questions.map((q) => q.answer)])
    .map((address) => mediaKey(address))
    .filter((key): key is string => key !== undefined);
  const media =
    keys.length === 0
      ? []
      : await db
          .select({
            id: contentMedia.id,
            key: contentMedia.storageKey,
            width: contentMedia.width,
            height: contentMedia.height,
          })
          .from(contentMedia)
          .where(inArray(contentMedia.storageKey, keys))
          // Held until the save commits, so a delete of the image waits for it.
          .for('key share');
  const boxes = new Map<string, ImageBox & { id: number }>(
    media.map((row) => [mediaPath(row.key), row]),
  );
  const used = new Set<number>();
  const options = {
    siteHost,
    imageBox: (src: string) => {
      const box = boxes.get(src);
      if (box) used.add(box.id);
      return box;
    },
  };
  const body = renderMarkdown(contents, lang, options);
  const rendered = questions.map((q) => ({
    question: q.question,
    answerMd: q.answer,
    answerHtml: renderMarkdown(q.answer, lang, options).html,
  }));
  return { body, questions: rendered, mediaIds: [...used] };
}
