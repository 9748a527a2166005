import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOutbound, renderMarkdown } from './markdown.ts';

/** The tags of an HTML text and their attributes (our stringifier quotes every value). */
function tagsOf(html: string) {
  const tags = [
    ...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>/g),
  ];
  return tags.map(([, name = '', attributes = '']) => ({
    name: name.toLowerCase(),
    attributes: [...attributes.matchAll(/([^\s"'>/=]+)(?:="([^"]*)")?/g)].map(
      ([, key = '', value = '']) => ({
        key: key.toLowerCase(),
        value: value.replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) =>
          String.fromCodePoint(Number.parseInt(hex, 16)),
        ),
      }),
    ),
  }));
}

/** The ids of an HTML text's elements, in order. */
const idsOf = (html: string) => [...html.matchAll(/\sid="([^"]*)"/g)].map(([, id = '']) => id);

const render = (markdown: string) => renderMarkdown(markdown, 'en', { siteHost: 'vpn.example' });

describe('renderMarkdown', () => {
  it('renders GFM: tables, lists, code, task lists, strikethrough', () => {
    const { html } = render(
      [
        '| Plan | Price |',
        '| --- | --- |',
        '| 1 month | $12.99 |',
        '',
        '- one',
        '- [x] done',
        '',
        '```sh',
        'wg-quick up wg0',
        '```',
        '',
        '~~old~~',
      ].join('\n'),
    );
    expect(html).toContain('<table>');
    expect(html).toContain('<td>$12.99</td>');
    expect(html).toContain('<code class="language-sh">wg-quick up wg0');
    expect(html).toContain('<input type="checkbox" checked disabled>');
    expect(html).toContain('<del>old</del>');
  });

  it('gives headings anchors and lists ## and ### in the table of contents', () => {
    const { html, toc } = render('## Install it\n\n### On Linux\n\n#### Deep\n\n## Install it');
    expect(html).toContain('<h2 id="user-content-install-it">Install it</h2>');
    expect(html).toContain('<h4 id="user-content-deep">Deep</h4>');
    expect(toc).toEqual([
      { depth: 2, id: 'user-content-install-it', text: 'Install it' },
      { depth: 3, id: 'user-content-on-linux', text: 'On Linux' },
      { depth: 2, id: 'user-content-install-it-1', text: 'Install it' },
    ]);
  });

  // The page around a body has ids of its own (`main`, `root`...): a body's never match them.
  it('prefixes every id of a body, and its in-page links follow', () => {
    const { html, toc } = render('## main\n\n## root\n\nSee [the top](#main).');
    const ids = idsOf(html);
    expect(ids).toEqual(['user-content-main', 'user-content-root']);
    expect(toc.map((entry) => entry.id)).toEqual(ids);
    expect(html).toContain('<a href="#user-content-main">the top</a>');
    expect(render('[a](#user-content-main) [b](#)').html).toContain(
      '<a href="#user-content-main">a</a> <a href="#">b</a>',
    );
  });

  it('makes footnotes whose links reach their targets, and keeps them out of the outline', () => {
    const { html, toc } = render('## Notes\n\nA claim.[^src]\n\n[^src]: A source.');
    const ids = idsOf(html);
    expect(new Set(ids).size).toBe(ids.length);
    const targets = [...html.matchAll(/(?:href|aria-describedby)="#?([^"]+)"/g)].map(
      ([, target = '']) => target,
    );
    expect(targets).toEqual(
      expect.arrayContaining(['user-content-fn-src', 'user-content-fnref-src']),
    );
    for (const target of targets) expect(ids).toContain(target);
    expect(html).toContain('<h2 class="sr-only" id="user-content-footnote-label">Footnotes</h2>');
    expect(toc).toEqual([{ depth: 2, id: 'user-content-notes', text: 'Notes' }]);
  });

  it("labels the footnotes and their links back in the body's language", () => {
    const { html } = renderMarkdown('Un dato.[^1] Otro.[^1]\n\n[^1]: La fuente.', 'es');
    expect(html).toContain('id="user-content-footnote-label">Notas al pie</h2>');
    expect(html).toContain('aria-label="Volver a la referencia 1"');
    expect(html).toContain('aria-label="Volver a la referencia 1-2"');
    expect(html).not.toMatch(/Footnotes|Back to reference/);
    expect(renderMarkdown('Факт.[^1]\n\n[^1]: Источник.', 'ru').html).toContain('>Примечания</h2>');
  });

  it('names headings without letters or digits "section", each once', () => {
    const { toc } = render('## ???\n\n## !!!\n\n## Section');
    expect(toc.map((entry) => entry.id)).toEqual([
      'user-content-section',
      'user-content-section-1',
      'user-content-section-2',
    ]);
  });

  it("never gives a heading a footnote's id", () => {
    const { html, toc } = render('## fn-1\n\n## footnote-label\n\nA claim.[^1]\n\n[^1]: A source.');
    const ids = idsOf(html);
    expect(new Set(ids).size).toBe(ids.length);
    expect(toc.map((entry) => entry.id)).toEqual([
      'user-content-fn-1-1',
      'user-content-footnote-label-1',
    ]);
  });

  it('marks outbound links noopener nofollow and leaves our own alone', () => {
    const { html } = render(
      '[a](https://wireguard.com) [b](/en/pricing) [c](https://vpn.example/en/blog)',
    );
    expect(html).toContain('<a href="https://wireguard.com" rel="noopener nofollow">a</a>');
    expect(html).toContain('<a href="/en/pricing">b</a>');
    expect(html).toContain('<a href="https://vpn.example/en/blog">c</a>');
  });

  // `//host/path` takes the page's scheme to another host: a browser leaves the site.
  it('counts protocol-relative links as outbound', () => {
    const { html } = render('[a](//evil.example/x) [b](//vpn.example/en/blog)');
    expect(html).toContain('<a href="//evil.example/x" rel="noopener nofollow">a</a>');
    expect(html).toContain('<a href="//vpn.example/en/blog">b</a>');
    expect(isOutbound('//evil.example/x', 'vpn.example')).toBe(true);
    expect(isOutbound('//vpn.example/x', 'vpn.example')).toBe(false);
    expect(isOutbound('/en/pricing', 'vpn.example')).toBe(false);
    expect(isOutbound('#top', 'vpn.example')).toBe(false);
    expect(isOutbound('mailto:a@vpn.example', 'vpn.example')).toBe(false);
    expect(isOutbound('https://wireguard.com', 'vpn.example')).toBe(true);
  });

  // Images from other hosts are shown over https (http ones are dropped): a protocol-relative
  // one is such an image, and is written as one.
  it('writes protocol-relative images as the https images they are', () => {
    const { html, images } = render('![a](//evil.example/a.png) ![b](https://cdn.example/b.png)');
    expect(html).toContain('<img src="https://evil.example/a.png" alt="a"');
    expect(html).toContain('<img src="https://cdn.example/b.png" alt="b"');
    expect(images).toEqual(['https://evil.example/a.png', 'https://cdn.example/b.png']);
    expect(render('![c](http://cdn.example/c.png)').html).not.toContain('cdn.example');
  });

  it('drops raw HTML and dangerous addresses', () => {
    const { html } = render(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z](data:text/html,hi)',
        '![p](javascript:alert(1))',
        '<a href="https://e.example" onclick="x()">e</a>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:|data:/i);
  });

  it('sizes and lazy-loads images it knows, and lists every image', () => {
    const { html, images } = renderMarkdown('![A router](/media/abcdefgh.webp)', 'en', {
      imageBox: (src) => (src === '/media/abcdefgh.webp' ? { width: 800, height: 450 } : undefined),
    });
    expect(html).toContain(
      '<img src="/media/abcdefgh.webp" alt="A router" loading="lazy" decoding="async" width="800" height="450">',
    );
    expect(images).toEqual(['/media/abcdefgh.webp']);
  });

  it('counts words in any script and the reading time', () => {
    expect(render('').readingMinutes).toBe(0);
    expect(render('word '.repeat(440)).readingMinutes).toBe(2);
    expect(renderMarkdown('Привет, мир! Это тест.', 'ru').words).toBe(4);
  });

  it('rewrites links before they are sanitized', () => {
    const { html } = renderMarkdown('[a](content:post/x) [b](content:bad)', 'en', {
      rewriteHref: (href) => (href === 'content:post/x' ? '/en/blog/x' : 'javascript:void 0'),
    });
    expect(html).toContain('<a href="/en/blog/x">a</a>');
    expect(html).not.toContain('javascript:');
  });

  // The renderer's promise, for any input at all: nothing that runs, and no id of the page's.
  it('never emits a script, an event handler or a javascript: address', () => {
    const pieces = fc.constantFrom(
      '<script>x</script>',
      '<svg onload=x>',
      '<iframe src="https://e.example">',
      '[l](javascript:x)',
      '[l](  javascript:x)',
      '[l](java\tscript:x)',
      '[l](&#106;avascript:x)',
      '![i](javascript:x)',
      '<a href="javascript:x">a</a>',
      '<img src=x onerror=x>',
      '<style>*{}</style>',
      '`<script>`',
      '```html\n<script>x</script>\n```',
      '<details open ontoggle=x>',
      '[l]: javascript:x\n\n[l]',
      '<form action="https://e.example"><input></form>',
      '\n',
      '# ',
      '- ',
      '| a | b |\n| - | - |\n| <b onmouseover=x>c</b> | d |',
      '[^1]',
      '\n\n[^1]: note\n\n',
      '## main',
      '[l](#main)',
      '[l](//e.example/x)',
      '![i](//e.example/i.png)',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 12 }), (parts) => {
        const { html } = render(parts.join(''));
        // Every `<` of text is escaped, so each tag found is a real element.
        expect(html.replace(/<[^>]*>/g, '')).not.toContain('<');
        for (const tag of tagsOf(html)) {
          expect(['script', 'iframe', 'style', 'form', 'svg', 'object']).not.toContain(tag.name);
          for (const { key, value } of tag.attributes) {
            expect(key).not.toMatch(/^on/);
            if (key === 'id') expect(value).toMatch(/^user-content-/);
            if (key === 'href' || key === 'src') {
              expect(value.trim()).not.toMatch(/^(javascript|data|vbscript):/i);
            }
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
