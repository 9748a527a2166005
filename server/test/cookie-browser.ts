/**
 * Just enough of a browser for redirect journeys over real HTTP: it keeps cookies (by name;
 * a test that needs paths uses two browsers) and follows redirects by hand, so a test can
 * stop at an address that is not ours (an app's redirect URI) or look at each hop.
 */
export class CookieBrowser {
  private readonly jar = new Map<string, string>();

  constructor(cookies: string[] = []) {
    for (const cookie of cookies) this.keep(cookie);
  }

  /** `name=value`, as a Set-Cookie header or a test's session cookie gives it. */
  keep(setCookie: string): void {
    const [pair = ''] = setCookie.split(';', 1);
    const at = pair.indexOf('=');
    if (at < 1) return;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const expired = /expires=Thu, 01 Jan 1970/i.test(setCookie) || /max-age=0\b/i.test(setCookie);
    if (expired || value === '') this.jar.delete(name);
    else this.jar.set(name, value);
  }

  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', this.cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const setCookie of response.headers.getSetCookie()) this.keep(setCookie);
    return response;
  }

  /**
   * GETs `url` and follows redirects until one leads where `stop` says (answered without
   * being fetched) or a page that is not a redirect answers; returns that address and the
   * last response.
   */
  async follow(
    url: string | URL,
    stop: (next: URL) => boolean = () => false,
    hops = 10,
  ): Promise<{ url: URL; response: Response }> {
    let current = new URL(url);
    for (let hop = 0; hop < hops; hop += 1) {
      const response = await this.fetch(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        return { url: current, response };
      }
      await response.body?.cancel();
      const next = new URL(location, current);
      if (stop(next)) return { url: next, response };
      current = next;
    }
    throw new Error(`more than ${hops} redirects from ${String(url)}`);
  }
}
