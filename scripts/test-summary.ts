import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Adds up the JSON reports of every test step into one closing line, `N passed, N failed`,
// the form CI reads.
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

const folder = process.argv[2] ?? '.tmp/test-results';
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of (await readdir(folder)).filter((name) => name.endsWith('.json')).sort()) {
  const report = JSON.parse(await readFile(join(folder, file), 'utf8')) as
    | VitestReport
    | PlaywrightReport;
  const counts =
    'stats' in report
      ? [report.stats.expected + report.stats.flaky, report.stats.unexpected, report.stats.skipped]
      : [report.numPassedTests, report.numFailedTests, report.numPendingTests];
  const [p = 0, f = 0, s = 0] = counts;
  console.log(`${file.replace(/\.json$/, '').padEnd(16)} ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed > 0 ? 1 : 0;
