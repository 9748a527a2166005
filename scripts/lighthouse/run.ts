import { mkdir, writeFile } from 'node:fs/promises';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServerProcess } from '#server/test/server-process.ts';
import type { SiteAnswer, SitePage } from '#shared/contracts/site.ts';

// Issue 23 "Speed": Lighthouse on a phone (its default mobile profile: a mid-range device,
// slow 4G simulated) against the production build served by the real server with the demo
// data, on the home, pricing, a blog post and a help article. Run `npm run build` first.
// `npm run lighthouse` prints the figures, writes the reports to test-results/lighthouse/
// and fails when a page misses a target.

const TARGETS = {
  performance: 98,
  accessibility: 100,
  seo: 100,
  lcpMs: 1_000,
  cls: 0,
  tbtMs: 50,
};
const REPORTS = 'test-results/lighthouse';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'];

async function page(base: string, path: string): Promise<SitePage> {
  const response = await fetch(`${base}/api/public/v1/site/page?path=${encodeURIComponent(path)}`);
  const answer = (await response.json()) as SiteAnswer;
  if (answer.kind !== 'page') return page(base, answer.to);
  return answer.page;
}

/** The demo content is seeded just after start-up: wait until the blog has its posts. */
async function addresses(base: string): Promise<Record<string, string>> {
  for (let tries = 0; tries < 120; tries += 1) {
    const blog = await page(base, '/en/blog');
    if (blog.body.kind === 'blog' && blog.body.posts.length > 0) {
      const help = await page(base, '/en/help-center');
      const article =
        help.body.kind === 'help' ? help.body.categories[0]?.children[0]?.articles[0] : undefined;
      const post = blog.body.posts[0];
      if (!article || !post) throw new Error('the demo has no article or post');
      return { home: '/en', pricing: blog.links.pricing, post: post.path, article: article.path };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the demo content did not appear');
}

/** One Lighthouse run; once more when Chromium's trace came back broken (NO_NAVSTART). */
async function audit(url: string, port: number, tries = 2) {
  const result = await lighthouse(url, {
    port,
    output: 'html',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'seo'],
  });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  if (result.lhr.runtimeError && tries > 1) return audit(url, port, tries - 1);
  return result;
}

interface Row {
  page: string;
  performance: number;
  accessibility: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  misses: string[];
}

async function main(): Promise<boolean> {
  const server = await startServerProcess({ SEED_DEMO: 'true', NODE_ENV: 'production' });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
  const rows: Row[] = [];
  try {
    await mkdir(REPORTS, { recursive: true });
    for (const [name, path] of Object.entries(await addresses(server.url))) {
      // One warm-up load renders and caches the page, as a visitor after the first meets it.
      await fetch(server.url + path);
      const result = await audit(server.url + path, chrome.port);
      const { lhr } = result;
      await writeFile(`${REPORTS}/${name}.html`, String(result.report));
      const score = (key: string) => Math.round((lhr.categories[key]?.score ?? 0) * 100);
      const value = (key: string) => lhr.audits[key]?.numericValue ?? Number.NaN;
      const row: Row = {
        page: `${name} ${path}`,
        performance: score('performance'),
        accessibility: score('accessibility'),
        seo: score('seo'),
        lcpMs: Math.round(value('largest-contentful-paint')),
        cls: Number(value('cumulative-layout-shift').toFixed(3)),
        tbtMs: Math.round(value('total-blocking-time')),
        misses: [],
      };
      if (row.performance < TARGETS.performance) row.misses.push('performance');
      if (row.accessibility < TARGETS.accessibility) row.misses.push('accessibility');
      if (row.seo < TARGETS.seo) row.misses.push('seo');
      if (row.lcpMs > TARGETS.lcpMs) row.misses.push('LCP');
      if (row.cls > TARGETS.cls) row.misses.push('CLS');
      if (row.tbtMs > TARGETS.tbtMs) row.misses.push('TBT');
      // What failed, for the one reading the figures.
      for (const category of ['accessibility', 'seo']) {
        for (const ref of lhr.categories[category]?.auditRefs ?? []) {
          const failed = lhr.audits[ref.id];
          if (ref.weight > 0 && failed && failed.score !== null && failed.score < 1) {
            row.misses.push(`${category}: ${failed.id}`);
          }
        }
      }
      rows.push(row);
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
  console.table(rows.map(({ misses, ...row }) => ({ ...row, misses: misses.join(', ') })));
  await writeFile(
    `${REPORTS}/summary.json`,
    `${JSON.stringify({ targets: TARGETS, rows }, null, 2)}\n`,
  );
  return rows.every((row) => row.misses.length === 0);
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
