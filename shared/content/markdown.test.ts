import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

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
    expect(html).toContain('<h2 id="install-it">Install it</h2>');
    expect(html).toContain('<h4 id="deep">Deep</h4>');
    expect(toc).toEqual([
      { depth: 2, id: 'install-it', text: 'Install it' },
      { depth: 3, id: 'on-linux', text: 'On Linux' },
      { depth: 2, id: 'install-it-1', text: 'Install it' },
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

  // The renderer's promise, for any input at all: nothing that runs.
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
