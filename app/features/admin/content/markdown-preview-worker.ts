import { characterEntities } from 'character-entities';
import type { Lang } from '#shared/locales.ts';

// The editor's preview renders here, off the page's thread: the stored pages' renderer
// takes about two seconds on a 200 KB body, which would freeze typing in the text area.

export interface PreviewRequest {
  id: number;
  markdown: string;
  lang: Lang;
  siteHost: string;
}

export interface PreviewReply {
  id: number;
  html: string;
}

// The parser's entity decoder (decode-named-character-reference), in the browser build the
// bundler picks for workers too, reads `&name;` through a DOM element, and a worker has no
// DOM. The two members it touches answer from the entity table its other build uses, with
// the same results; the renderer is loaded only once they are in place.
if (typeof document === 'undefined') {
  let text = '';
  const element = {
    set innerHTML(html: string) {
      const name = /^&(.+);$/.exec(html)?.[1];
      text =
        name !== undefined && Object.hasOwn(characterEntities, name)
          ? (characterEntities[name] ?? html)
          : html;
    },
    get textContent() {
      return text;
    },
  };
  Object.assign(globalThis, { document: { createElement: () => element } });
}
const renderer = import('#shared/content/markdown.ts');

addEventListener('message', async (event: MessageEvent<PreviewRequest>) => {
  const { renderMarkdown } = await renderer;
  const { id, markdown, lang, siteHost } = event.data;
  const reply: PreviewReply = { id, html: renderMarkdown(markdown, lang, { siteHost }).html };
  postMessage(reply);
});
