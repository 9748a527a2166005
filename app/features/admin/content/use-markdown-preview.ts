import { useEffect, useRef, useState } from 'react';
import type { Lang } from '#shared/locales.ts';
import type { PreviewReply, PreviewRequest } from './markdown-preview-worker.ts';

/** How long typing pauses before the preview follows it. */
export const PREVIEW_DELAY_MS = 250;

type Text = Omit<PreviewRequest, 'id'>;
type Pending = { request: PreviewRequest; resolve: (html: string | undefined) => void };

/**
 * The page's one preview worker, shared by every Markdown field (an FAQ has one a question):
 * started with the first preview, ended when the last field goes. Where a worker cannot run,
 * the renderer is loaded here instead (slower on long bodies, but the same renderer).
 */
class PreviewThread {
  private worker: Worker | undefined;
  private failed = false;
  private users = 0;
  private next = 0;
  private readonly pending = new Map<number, Pending>();

  join(): () => void {
    this.users += 1;
    return () => {
      this.users -= 1;
      if (this.users === 0) this.stop();
    };
  }

  /** The HTML of a text; undefined when it could not be rendered or the thread stopped. */
  render(text: Text): Promise<string | undefined> {
    const request = { ...text, id: ++this.next };
    return new Promise((resolve) => {
      this.pending.set(request.id, { request, resolve });
      this.send(request);
    });
  }

  private send(request: PreviewRequest) {
    if (!this.failed) this.worker ??= this.start();
    if (this.worker) this.worker.postMessage(request);
    else this.renderHere(request);
  }

  private start(): Worker | undefined {
    try {
      const worker = new Worker(new URL('./markdown-preview-worker.ts', import.meta.url), {
        type: 'module',
      });
      worker.addEventListener('message', (event: MessageEvent<PreviewReply>) =>
        this.settle(event.data.id, event.data.html),
      );
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        console.error(event.message);
        this.failed = true;
        worker.terminate();
        this.worker = undefined;
        for (const { request } of this.pending.values()) this.renderHere(request);
      });
      return worker;
    } catch (error) {
      console.error(error);
      this.failed = true;
      return undefined;
    }
  }

  private renderHere(request: PreviewRequest) {
    import('#shared/content/markdown.ts')
      .then(({ renderMarkdown }) => {
        const { siteHost } = request;
        this.settle(request.id, renderMarkdown(request.markdown, request.lang, { siteHost }).html);
      })
      .catch((error: unknown) => {
        console.error(error);
        this.settle(request.id, undefined);
      });
  }

  private settle(id: number, html: string | undefined) {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    pending?.resolve(html);
  }

  private stop() {
    this.worker?.terminate();
    this.worker = undefined;
    for (const { resolve } of this.pending.values()) resolve(undefined);
    this.pending.clear();
  }
}

const thread = new PreviewThread();

/**
 * One field's renders, one at a time: what is typed while one renders waits, and only the
 * newest of it is rendered next. A render that fails keeps what the preview showed.
 */
class PreviewChannel {
  live = true;
  private busy = false;
  private waiting: Text | undefined;

  constructor(private readonly onHtml: (html: string) => void) {}

  render(text: Text) {
    if (this.busy) {
      this.waiting = text;
      return;
    }
    this.busy = true;
    void thread.render(text).then((html) => {
      this.busy = false;
      if (!this.live) return;
      if (html !== undefined) this.onHtml(html);
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting) this.render(waiting);
    });
  }
}

/**
 * A Markdown body as the stored page will show it, following the typing a moment after it
 * pauses (at once when the preview first shows), without ever making the typing wait.
 * Nothing loads until the preview is first `active`; null until its first render.
 */
export function useMarkdownPreview(markdown: string, lang: Lang, active: boolean): string | null {
  const [html, setHtml] = useState<string | null>(null);
  const [channel] = useState(() => new PreviewChannel(setHtml));
  const shown = useRef(false);
  useEffect(() => {
    channel.live = true;
    const leave = thread.join();
    return () => {
      channel.live = false;
      leave();
    };
  }, [channel]);
  useEffect(() => {
    if (!active) {
      shown.current = false;
      return;
    }
    const delay = shown.current ? PREVIEW_DELAY_MS : 0;
    shown.current = true;
    const timer = setTimeout(
      () => channel.render({ markdown, lang, siteHost: window.location.hostname }),
      delay,
    );
    return () => clearTimeout(timer);
  }, [channel, active, markdown, lang]);
  return html;
}
