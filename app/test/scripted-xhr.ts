/**
 * A stand-in for the browser's XMLHttpRequest (the network boundary, used by uploads),
 * driven by the test: install with vi.stubGlobal('XMLHttpRequest', ScriptedXhr).
 */
export class ScriptedXhr {
  static last: ScriptedXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  timeout = 0;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    ScriptedXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.(
      new ProgressEvent('progress', { lengthComputable: true, loaded, total }),
    );
  }
  respond(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }

  /** The request the page sent last; fails the test if there was none. */
  static current(): ScriptedXhr {
    if (!ScriptedXhr.last) throw new Error('no request was sent');
    return ScriptedXhr.last;
  }
}
