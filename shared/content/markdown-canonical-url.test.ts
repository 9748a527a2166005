import { describe, expect, it } from 'vitest';
import { seoFields } from '../contracts/admin/content.ts';

// The canonical address is written into a page's <link rel="canonical">: an absolute web
// address, as the URL parser reads it, and nothing that could leave the attribute.
describe('canonical_url', () => {
  const parse = (canonical_url: string) => seoFields.safeParse({ canonical_url });
  const messages = (canonical_url: string) =>
    parse(canonical_url).error?.issues.map((issue) => issue.message);

  it('takes an absolute http or https address, or nothing', () => {
    for (const url of [
      '',
      '  ',
      'https://vpn.example/en/blog/why',
      'http://vpn.example/a?b=c#d',
      'https://vpn.example',
      'https://xn--80ak6aa92e.example/путь',
    ]) {
      expect(parse(url).success, url).toBe(true);
    }
    expect(parse('  https://vpn.example/a  ').data?.canonical_url).toBe('https://vpn.example/a');
  });

  it('refuses anything else, under its own message', () => {
    for (const url of [
      'https://vpn.example/a"onmouseover="x',
      'https://vpn.example/<script>',
      'https://vpn.example/a>b',
      "https://vpn.example/a'b",
      'https://vpn.example/a b',
      'https://vpn.example/a\\b',
      'https://vpn.example/a`b',
      'javascript://vpn.example/%0aalert(1)',
      'ftp://vpn.example/a',
      '//vpn.example/a',
      '/en/blog/why',
      'https://',
      'https://a b.example/',
      'https://localhost/a',
      'https://user:pass@vpn.example/a',
    ]) {
      expect(messages(url), url).toEqual(['staff_content.errors.canonical_url']);
    }
  });
});
