// A small SVG chart for the soak report: one panel per series, a line over the minutes,
// the axis from zero so that a slow climb shows as one.

export interface Series {
  name: string;
  values: readonly number[];
}

const WIDTH = 720;
const PANEL = 160;
const PAD = 40;

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function lineChart(series: readonly Series[]): string {
  const height = series.length * (PANEL + PAD) + PAD;
  const panels = series.map((s, index) => {
    const top = PAD + index * (PANEL + PAD);
    const max = Math.max(1, ...s.values) * 1.1;
    const step = s.values.length > 1 ? (WIDTH - 2 * PAD) / (s.values.length - 1) : 0;
    const points = s.values
      .map((value, i) => {
        const x = PAD + i * step;
        const y = top + PANEL - (value / max) * PANEL;
        return `${x.toFixed(1)},${y.toFixed(1)}`;
      })
      .join(' ');
    const last = s.values[s.values.length - 1] ?? 0;
    return [
      `<text x="${PAD}" y="${top - 8}" font-size="13">${escapeXml(s.name)}: last ${last}, max ${Math.max(0, ...s.values)}</text>`,
      `<rect x="${PAD}" y="${top}" width="${WIDTH - 2 * PAD}" height="${PANEL}" fill="none" stroke="#ccc"/>`,
      `<text x="4" y="${top + 10}" font-size="10">${Math.round(max)}</text>`,
      `<text x="4" y="${top + PANEL}" font-size="10">0</text>`,
      `<polyline points="${points}" fill="none" stroke="#2563eb" stroke-width="2"/>`,
    ].join('\n');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...panels,
    `<text x="${PAD}" y="${height - 10}" font-size="11">minutes →</text>`,
    '</svg>',
  ].join('\n');
}
