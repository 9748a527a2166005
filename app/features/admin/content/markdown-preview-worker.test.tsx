import { afterEach, describe, expect, it } from 'vitest';
import { renderMarkdown } from '#shared/content/markdown.ts';
import type { PreviewReply, PreviewRequest } from './markdown-preview-worker.ts';

// The editor's preview renders in a worker, which has no DOM: what it renders must still be
// what the stored page shows, character references included (their decoder wants a DOM).
let worker: Worker | undefined;
afterEach(() => {
  worker?.terminate();
  worker = undefined;
});

function renderInWorker(request: PreviewRequest): Promise<PreviewReply> {
  const started = new Worker(new URL('./markdown-preview-worker.ts', import.meta.url), {
    type: 'module',
  });
  worker = started;
  return new Promise((resolve, reject) => {
    started.addEventListener('message', (event: MessageEvent<PreviewReply>) => resolve(event.data));
    started.addEventListener('error', (event) => reject(new Error(event.message)));
    started.postMessage(request);
  });
}

describe('the preview worker', () => {
  it('renders what the stored page renderer renders', async () => {
    const markdown = [
      '## Fast &amp; private &copy; &Eacute;tude &notit; &semi; &#x41;',
      '',
      '<script>alert(1)</script>',
      '',
      'A [link](https://elsewhere.example/) and an ![image](/media/content/k3y.webp).',
      '',
      '| a | b |\n|---|---|\n| 1 | 2 |',
    ].join('\n');
    const siteHost = window.location.hostname;
    const reply = await renderInWorker({ id: 7, markdown, lang: 'fr', siteHost });
    expect(reply).toEqual({ id: 7, html: renderMarkdown(markdown, 'fr', { siteHost }).html });
    expect(reply.html).toContain('Fast &#x26; private © Étude');
    expect(reply.html).not.toContain('<script');
  });
});
