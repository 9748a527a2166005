import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyzeSeo,
  containsPhrase,
  readMarkdown,
  SEO_CHECK_IDS,
  SEO_REASONS,
  SEO_WEIGHTS,
  type SeoCheckId,
  type SeoInput,
} from './seo-analysis.ts';

const filler = 'We keep your data safe when you use the web at home or on the road. '.repeat(10);
const BODY = [
  'Our fast VPN keeps your data safe on every network. Compare our [plans](/en/pricing) or read',
  'about the [WireGuard protocol](https://www.wireguard.com).',
  '',
  '## Why a fast VPN matters',
  '',
  filler,
  '',
  '![A map of our servers](/media/map.png)',
  '',
  '### How it works',
  '',
  filler,
].join('\n');

/** A post that passes every check; each case below changes what it needs to fail one. */
const BASE: SeoInput = {
  lang: 'en',
  title: 'Fast VPN for Streaming, Gaming and Privacy on Every Device',
  description:
    'A fast VPN that keeps your data private on every device. Connect in one tap, stream without limits and stay safe on public Wi-Fi.',
  slug: 'fast-vpn',
  keyphrase: 'fast VPN',
  markdown: BODY,
  siteHost: 'vpn.example',
};

const checkOf = (input: SeoInput, id: SeoCheckId) =>
  analyzeSeo(input).checks.find((check) => check.id === id);

interface Case {
  name: string;
  patch: Partial<SeoInput>;
  passed: boolean;
  reason: string;
  values: Record<string, number | string>;
}

const pass = (name: string, patch: Partial<SeoInput>, reason: string, values = {}): Case => ({
  name,
  patch,
  passed: true,
  reason,
  values,
});
const fail = (name: string, patch: Partial<SeoInput>, reason: string, values = {}): Case => ({
  ...pass(name, patch, reason, values),
  passed: false,
});

const HARD =
  'The epistemological ramifications of contemporary computational methodologies necessitate comprehensive reconsideration of established interdisciplinary paradigms. ';

/** Per check: the input that makes it pass or fail, the reason and the values it gives. */
const CASES: Record<SeoCheckId, Case[]> = {
  title_length: [
    pass('30 to 60 characters', {}, 'good', { chars: 58, min: 30, max: 60 }),
    fail('no title', { title: '  ' }, 'missing', { chars: 0 }),
    fail('a short title, spaces collapsed', { title: ' Fast   VPN ' }, 'short', { chars: 8 }),
    fail('a long title', { title: `Fast VPN ${'x'.repeat(63)}` }, 'long', { chars: 72, max: 60 }),
  ],
  title_width: [
    pass('a title that fits', {}, 'fits', { pixels: 554, max: 580 }),
    fail('no title', { title: '' }, 'missing'),
    fail('31 capital Ws', { title: 'W'.repeat(31) }, 'too_wide', { pixels: 585, max: 580 }),
  ],
  description_length: [
    pass('120 to 156 characters', {}, 'good', { chars: 129, min: 120, max: 156 }),
    fail('no description', { description: '' }, 'missing', { chars: 0 }),
    fail('a short description', { description: 'Fast VPN.' }, 'short', { chars: 9 }),
    fail('a long description', { description: 'x'.repeat(157) }, 'long', { chars: 157 }),
  ],
  description_width: [
    pass('a description that fits', {}, 'fits', { pixels: 794, max: 920 }),
    fail('no description', { description: '' }, 'missing'),
    fail('130 capital Ws', { description: 'W'.repeat(130) }, 'too_wide', { pixels: 1718 }),
  ],
  keyphrase_set: [
    pass('a keyphrase', {}, 'set', { keyphrase: 'fast VPN' }),
    fail('no keyphrase', { keyphrase: '' }, 'missing'),
    fail('a keyphrase without words', { keyphrase: ' — ! ' }, 'missing'),
  ],
  keyphrase_in_title: [
    pass('the keyphrase in the title', {}, 'found', { keyphrase: 'fast VPN' }),
    pass('two words between', { title: 'Fast and secure VPN for streaming' }, 'found'),
    fail('three words between', { title: 'Fast, private and secure VPN' }, 'not_found'),
    fail('another order', { title: 'The VPN that feels fast' }, 'not_found'),
    pass('other case and accents', { keyphrase: 'cafe vpn', title: 'The CAFÉ VPN' }, 'found'),
    fail('no keyphrase', { keyphrase: '' }, 'no_keyphrase'),
  ],
  keyphrase_in_slug: [
    pass('the keyphrase in the slug', { slug: 'best-fast-vpn-2026' }, 'found'),
    fail('a slug without it', { slug: 'cheap-vpn' }, 'not_found', { keyphrase: 'fast VPN' }),
    pass(
      'a Russian keyphrase in a transliterated slug',
      { lang: 'ru', keyphrase: 'Быстрый ВПН', slug: 'bystryy-vpn-dlya-vsekh' },
      'found',
    ),
    fail('no keyphrase', { keyphrase: '' }, 'no_keyphrase'),
  ],
  keyphrase_in_first_paragraph: [
    pass('the keyphrase in the first paragraph', {}, 'found'),
    pass(
      'a first paragraph after an image, a heading and a list',
      { markdown: '![Hero](/h.png)\n\n## Plans\n\n- one\n- two\n\nA fast VPN for you.' },
      'found',
    ),
    fail(
      'the keyphrase in the second paragraph only',
      { markdown: 'Welcome to our blog.\n\nA fast VPN for you.' },
      'not_found',
    ),
    fail(
      'a body of headings, lists and code',
      { markdown: '## Fast VPN\n\n- a fast VPN\n\n```\na fast VPN\n```' },
      'no_paragraph',
    ),
    fail('no keyphrase', { keyphrase: '' }, 'no_keyphrase'),
  ],
  keyphrase_in_heading: [
    pass('the keyphrase in a subheading', {}, 'found'),
    fail('subheadings without it', { markdown: '## Plans\n\nA fast VPN.' }, 'not_found'),
    fail('no subheadings', { markdown: 'A fast VPN.' }, 'no_headings'),
    fail('no keyphrase', { keyphrase: '' }, 'no_keyphrase'),
  ],
  headings_in_order: [
    pass('one level down at a time', {}, 'in_order', { headings: 2 }),
    pass('back up and down again', { markdown: '## A\n### B\n#### C\n## D\n### E' }, 'in_order'),
    pass('no headings', { markdown: 'Text.' }, 'none'),
    fail('## then ####', { markdown: '## A\n\ntext\n\n#### B' }, 'skipped_level', {
      from: 2,
      to: 4,
      heading: 'B',
    }),
    fail('### under the title', { markdown: '### A' }, 'skipped_level', { from: 1, to: 3 }),
    fail('a # heading', { markdown: '# Another title\n\n## A' }, 'h1_in_body', {
      heading: 'Another title',
    }),
    fail('an underlined H1', { markdown: 'Another title\n===\n\ntext' }, 'h1_in_body'),
    pass(
      '# lines inside a code block',
      { markdown: '## A\n\n```sh\n#### not a heading\n# nor this\n```' },
      'in_order',
      { headings: 1 },
    ),
  ],
  images_alt: [
    pass('images with alternative text', {}, 'all_have_alt', { images: 1 }),
    pass('no images', { markdown: 'Text.' }, 'none'),
    fail(
      'images without alternative text',
      { markdown: '![](/a.png) ![A cat](/b.png) ![ ](/c.png)' },
      'missing_alt',
      { missing: 2, images: 3 },
    ),
  ],
  internal_links: [
    pass('a link to one of our pages', {}, 'found', { links: 1 }),
    pass(
      'each form of link to us',
      {
        markdown: [
          '[a](/en) [b](#faq) [c](content:page/pricing) [d](https://vpn.example/x)',
          '[e](https://WWW.vpn.example) [f](pricing) [g][ref]',
          '',
          '[ref]: /en/blog',
        ].join('\n'),
      },
      'found',
      { links: 7 },
    ),
    fail(
      'links out and mail only',
      { markdown: '[a](https://a.example) [b](mailto:x@vpn.example)' },
      'none',
      { links: 0 },
    ),
    fail('links inside code', { markdown: '`[a](/en/x)`\n\n```\n[b](/en/y)\n```' }, 'none'),
  ],
  outbound_links: [
    pass('a link to another site', {}, 'found', { links: 1 }),
    pass(
      'each form of link out',
      {
        markdown:
          '[a](http://a.example) <https://b.example> https://c.example. www.d.example [e](//e.example)',
      },
      'found',
      { links: 5 },
    ),
    fail(
      'links to us and mail only',
      { markdown: '[a](/en) [b](https://vpn.example/x) [c](mailto:a@b.example)' },
      'none',
      { links: 0 },
    ),
  ],
  readability: [
    pass('plain sentences', {}, 'easy', { score: 100, min: 60 }),
    fail('long abstract words', { markdown: HARD.repeat(5) }, 'hard', { score: 0, min: 60 }),
    fail('a body of an image only', { markdown: '![A map](/map.png)' }, 'no_text', { score: 0 }),
  ],
  text_length: [
    pass('at least 300 words', {}, 'good', { words: 347, min: 300 }),
    fail('a short body', { markdown: 'A fast VPN for you.' }, 'short', { words: 5, min: 300 }),
  ],
};

describe('analyzeSeo', () => {
  describe.each(SEO_CHECK_IDS)('%s', (id) => {
    it.each(CASES[id])('$name: $reason', ({ patch, passed, reason, values }) => {
      const check = checkOf({ ...BASE, ...patch }, id);
      expect(check).toMatchObject({ id, passed, reason, weight: SEO_WEIGHTS[id] });
      expect(check?.values).toMatchObject(values);
    });
  });

  it('reaches every reason it lists, and lists every reason it gives', () => {
    const given = new Set<string>();
    for (const { patch } of Object.values(CASES).flat()) {
      for (const check of analyzeSeo({ ...BASE, ...patch }).checks) {
        given.add(`${check.id}.${check.reason}`);
      }
    }
    const listed = SEO_CHECK_IDS.flatMap((id) =>
      SEO_REASONS[id].map((reason) => `${id}.${reason}`),
    );
    expect([...given].sort()).toEqual([...listed].sort());
  });

  it('passes every check of a good post, for a score of 100', () => {
    const analysis = analyzeSeo(BASE);
    expect(analysis.checks.map((check) => check.id)).toEqual(SEO_CHECK_IDS);
    expect(analysis.checks.filter((check) => !check.passed)).toEqual([]);
    expect(analysis.score).toBe(100);
    expect(analysis.readability).toMatchObject({ words: 347, band: 'very_easy' });
  });

  it('weighs the checks: title, description and keyphrase 2, outbound links 0.5, others 1', () => {
    expect(SEO_WEIGHTS).toMatchObject({
      title_length: 2,
      title_width: 2,
      description_length: 2,
      description_width: 2,
      keyphrase_set: 2,
      keyphrase_in_title: 2,
      keyphrase_in_slug: 2,
      keyphrase_in_first_paragraph: 2,
      keyphrase_in_heading: 2,
      headings_in_order: 1,
      images_alt: 1,
      internal_links: 1,
      outbound_links: 0.5,
      readability: 1,
      text_length: 1,
    });
    // 23 of 23.5 without an outbound link; 21.5 of 23.5 without a description's width.
    expect(
      analyzeSeo({ ...BASE, markdown: BODY.replace('https://www.wireguard.com', '/en/wg') }).score,
    ).toBe(98);
    expect(analyzeSeo({ ...BASE, description: 'W'.repeat(130) }).score).toBe(91);
  });

  it('leaves out the body’s checks without a body, and the slug’s without a slug', () => {
    const analysis = analyzeSeo({ ...BASE, slug: '', markdown: ' \n ' });
    expect(analysis.checks.map((check) => check.id)).toEqual([
      'title_length',
      'title_width',
      'description_length',
      'description_width',
      'keyphrase_set',
      'keyphrase_in_title',
    ]);
    expect(analysis.score).toBe(100);
    expect(analysis.readability).toEqual({
      score: 0,
      words: 0,
      sentences: 0,
      syllables: 0,
      band: 'very_difficult',
    });
  });

  it('scores 0 when everything is missing', () => {
    const empty = { lang: 'fr', title: '', description: '', slug: '', keyphrase: '', markdown: '' };
    expect(analyzeSeo(empty as SeoInput).score).toBe(0);
  });

  it('never throws, and keeps to its vocabulary and a 0..100 score, for any input', () => {
    const markdownish = fc
      .array(
        fc.oneof(
          fc.constantFrom(
            '#',
            '## ',
            '![',
            '[',
            ']',
            '](',
            ')',
            '`',
            '```',
            '~~~',
            '\n',
            '\n\n',
            '> ',
            '- ',
            '1. ',
            '|',
            '---',
            '===',
            '*',
            '_',
            '<',
            '>',
            '<!--',
            '-->',
            '\\',
            '&amp;',
            '&#x',
            'http://',
            'https://vpn.example/',
            'www.',
            '[ref]: ',
            ' ',
            'fast',
            'VPN',
            'é',
            'ж',
          ),
          fc.string({ unit: 'binary' }),
        ),
      )
      .map((parts) => parts.join(''));
    const text = fc.oneof(fc.string({ unit: 'binary' }), markdownish);
    fc.assert(
      fc.property(
        fc.record({
          lang: fc.constantFrom('en', 'es', 'fr', 'nl', 'ru'),
          title: text,
          description: text,
          slug: text,
          keyphrase: text,
          markdown: text,
          siteHost: fc.option(fc.domain(), { nil: undefined }),
        }),
        (input) => {
          const analysis = analyzeSeo(input);
          expect(Number.isInteger(analysis.score)).toBe(true);
          expect(analysis.score).toBeGreaterThanOrEqual(0);
          expect(analysis.score).toBeLessThanOrEqual(100);
          expect(analysis.readability.score).toBeGreaterThanOrEqual(0);
          expect(analysis.readability.score).toBeLessThanOrEqual(100);
          const ids = analysis.checks.map((check) => check.id);
          expect(new Set(ids).size).toBe(ids.length);
          for (const check of analysis.checks) {
            expect(SEO_REASONS[check.id] as readonly string[]).toContain(check.reason);
            expect(check.weight).toBe(SEO_WEIGHTS[check.id]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a 200 KB body of unclosed brackets, backticks and underscores quickly', () => {
    const started = performance.now();
    for (const unit of ['[', ']', '![', '`` `', 'a_', '<a ', '#', '."', '|-']) {
      const markdown = unit.repeat(Math.floor((200 * 1024) / unit.length));
      analyzeSeo({ ...BASE, title: markdown, slug: markdown, markdown });
    }
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('readMarkdown', () => {
  it('keeps the prose: no code, link targets, emphasis, table pipes or HTML', () => {
    const outline = readMarkdown(
      [
        '# Title',
        '',
        'Some **bold**, _italic_ and ~~old~~ words with `code`, a [link](https://a.example "A")',
        'and snake_case kept, \\*escaped\\* &amp; a footnote[^1].',
        '',
        '```sh',
        'wg-quick up wg0',
        '```',
        '',
        '| Plan | Price |',
        '| :--- | ---: |',
        '| Month | $12 \\| €11 |',
        '',
        '<div>',
        'hidden',
        '</div>',
        '',
        '> - [x] quoted task',
        '',
        '---',
        '[^1]: The note.',
      ].join('\n'),
    );
    expect(outline.text).toBe(
      [
        'Title',
        'Some bold, italic and old words with , a link and snake_case kept, *escaped* & a footnote .',
        'Plan Price',
        'Month $12 | €11',
        'quoted task',
        'The note.',
      ].join('\n'),
    );
    expect(outline.firstParagraph).toBe(
      'Some bold, italic and old words with , a link and snake_case kept, *escaped* & a footnote .',
    );
    expect(outline.headings).toEqual([{ level: 1, text: 'Title' }]);
  });

  it('finds links and images inline, by reference, nested and bare', () => {
    const outline = readMarkdown(
      [
        '[![Logo](/logo.png)](/en) [Blog][blog] [Help][] [FAQ] <https://a.example>',
        'see https://b.example/x). and ![Map][map]',
        '',
        '[blog]: /en/blog',
        '[help]: <https://help.example>',
        '[faq]: /en/faq "Questions"',
        '[map]: /map.png',
      ].join('\n'),
    );
    expect(outline.links).toEqual([
      { text: '', url: '/en' },
      { text: 'Blog', url: '/en/blog' },
      { text: 'Help', url: 'https://help.example' },
      { text: 'FAQ', url: '/en/faq' },
      { text: '', url: 'https://a.example' },
      { text: '', url: 'https://b.example/x' },
    ]);
    expect(outline.images).toEqual([
      { alt: 'Logo', url: '/logo.png' },
      { alt: 'Map', url: '/map.png' },
    ]);
  });

  it('reads headings: closing hashes, block quotes, no space is no heading', () => {
    const outline = readMarkdown(
      '## Plans ##\n\n> ### Quoted\n\n#hashtag\n\n####### seven\n\nSub\n---',
    );
    expect(outline.headings).toEqual([
      { level: 2, text: 'Plans' },
      { level: 3, text: 'Quoted' },
      { level: 2, text: 'Sub' },
    ]);
  });
});

describe('containsPhrase', () => {
  const words = (text: string) => text.split(' ');
  it.each([
    ['fast vpn', 'a fast vpn', true],
    ['fast vpn', 'fast and secure vpn', true],
    ['fast vpn', 'fast and very secure vpn', false],
    ['fast vpn', 'vpn fast', false],
    ['fast vpn', 'fast a b c fast x vpn', true],
    ['a b c', 'a x b x x c', true],
    ['a b c', 'a x x x b c', false],
    ['vpn', '', false],
  ])('%j in %j: %s', (phrase, text, found) => {
    expect(containsPhrase(words(text), words(phrase))).toBe(found);
  });

  it('finds nothing for an empty phrase', () => {
    expect(containsPhrase(['a'], [])).toBe(false);
  });
});
