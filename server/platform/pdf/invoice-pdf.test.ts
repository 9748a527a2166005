import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGS, type Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';
import type { InvoiceDocument } from './invoice-document.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { INVOICE_TEXTS } from './invoice-texts.ts';

// The PDF is read back the way a person's viewer would: poppler's pdftotext (Debian
// poppler-utils, installed by scripts/lib/services.sh) extracts the text from the embedded
// font's Unicode map, so a glyph missing from the font (Cyrillic, ₽) would not come back.
// Expected money and dates are built with Intl, as the renderer does.

const run = promisify(execFile);
let dir: string;
let files = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'invoice-pdf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function saved(pdf: Buffer): Promise<string> {
  const file = join(dir, `invoice-${++files}.pdf`);
  await writeFile(file, pdf);
  return file;
}

/** The text of each page, as laid out (pdftotext ends every page with a form feed). */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const { stdout } = await run('pdftotext', ['-layout', await saved(pdf), '-']);
  return stdout.split('\f').slice(0, -1);
}

/** Whitespace of any kind (Intl's no-break spaces, the layout's columns) as one space. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}

async function textOf(pdf: Buffer): Promise<string> {
  return flat((await pagesOf(pdf)).join('\n'));
}

const money = (amount: number, currency: string, lang: Lang) =>
  flat(formatMoney({ amount, currency }, lang));
const date = (value: Date, lang: Lang) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(value);

function invoice(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  return {
    number: 'INV-2026-000123',
    status: 'paid',
    issuedAt: new Date('2026-11-21T10:00:00Z'),
    paidAt: new Date('2026-11-22T08:30:00Z'),
    periodStart: new Date('2026-11-21T00:00:00Z'),
    periodEnd: new Date('2027-11-20T00:00:00Z'),
    currency: 'USD',
    seller: {
      name: 'Shieldline Ltd',
      lines: ['1 Harbour Street', 'Dublin D02 XY12', 'Ireland'],
      taxId: 'IE1234567X',
    },
    buyer: {
      name: 'Jane Doe',
      email: 'jane@example.com',
      lines: ['42 Main Street', 'Springfield, IL 62701', 'United States'],
    },
    lines: [
      { description: 'Premium plan, 12 months', quantity: 1, unitAmount: 9999, amount: 9999 },
      {
        description:
          'Dedicated IP address in Frankfurt, billed yearly with the membership; renews automatically unless cancelled before the end of the period',
        quantity: 2,
        unitAmount: 2500,
        amount: 5000,
      },
      { description: 'Extra devices', quantity: 3, unitAmount: 100, amount: 300 },
    ],
    subtotal: 15299,
    discount: null,
    tax: null,
    total: 15299,
    amountPaid: 15299,
    amountRefunded: 0,
    ...overrides,
  };
}

describe('renderInvoicePdf', () => {
  it('writes an English invoice with seller, buyer, lines, discount, tax and total', async () => {
    const doc = invoice({
      discount: { label: 'SPRING20', amount: 3060 },
      tax: { label: 'VAT', ratePercent: 23, amount: 2815 },
      total: 15054,
      amountPaid: 15054,
    });
    const pdf = await renderInvoicePdf(doc, 'en');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await pagesOf(pdf);
    expect(pages).toHaveLength(1);
    const text = flat(pages.join('\n'));

    for (const expected of [
      'Shieldline VPN',
      'Invoice',
      'PAID',
      'Invoice number INV-2026-000123',
      `Date ${date(doc.issuedAt, 'en')}`,
      `Paid ${date(doc.paidAt as Date, 'en')}`,
      'Service period',
      'Shieldline Ltd',
      '1 Harbour Street',
      'Dublin D02 XY12',
      'Tax ID: IE1234567X',
      'BILLED TO',
      'Jane Doe',
      'jane@example.com',
      'Springfield, IL 62701',
      'Description Qty Unit price Amount',
      `Premium plan, 12 months 1 ${money(9999, 'USD', 'en')} ${money(9999, 'USD', 'en')}`,
      `Extra devices 3 ${money(100, 'USD', 'en')} ${money(300, 'USD', 'en')}`,
      `Subtotal ${money(15299, 'USD', 'en')}`,
      `Discount (SPRING20) ${money(-3060, 'USD', 'en')}`,
      `VAT (23%) ${money(2815, 'USD', 'en')}`,
      `Total ${money(15054, 'USD', 'en')}`,
      `Amount paid ${money(15054, 'USD', 'en')}`,
    ]) {
      expect(text).toContain(expected);
    }
    // The long description wraps inside its column, every word kept.
    expect(text).toContain('renews automatically');
    expect(text).toContain('end of the period');
    expect(text).not.toContain('Page 1');
    expect(text).not.toContain('Refunded');
  });

  it('writes a Russian invoice in Cyrillic with roubles, the fonts embedded', async () => {
    const doc = invoice({
      status: 'open',
      paidAt: null,
      currency: 'RUB',
      buyer: {
        name: 'Иван Петрович Сидоров',
        email: 'ivan@example.ru',
        lines: ['ул. Тверская, д. 7, кв. 12', '125009 Москва', 'Россия'],
      },
      lines: [
        {
          description: 'Подписка Shieldline VPN на год',
          quantity: 1,
          unitAmount: 1_234_56,
          amount: 1_234_56,
        },
      ],
      subtotal: 1_234_56,
      tax: { label: 'НДС', ratePercent: 20, amount: 246_91 },
      total: 1_481_47,
      amountPaid: 0,
    });
    const pdf = await renderInvoicePdf(doc, 'ru');
    const text = await textOf(pdf);

    for (const expected of [
      'Счёт',
      'ОЖИДАЕТ ОПЛАТЫ',
      'Номер счёта INV-2026-000123',
      `Дата ${date(doc.issuedAt, 'ru')}`,
      'ПЛАТЕЛЬЩИК',
      'Иван Петрович Сидоров',
      'ул. Тверская, д. 7, кв. 12',
      '125009 Москва',
      'ИНН: IE1234567X',
      'Описание Кол-во Цена Сумма',
      'Подписка Shieldline VPN на год',
      `НДС (${flat(new Intl.NumberFormat('ru', { style: 'percent' }).format(0.2))})`,
      `Итого ${money(1_481_47, 'RUB', 'ru')}`,
      `К оплате ${money(1_481_47, 'RUB', 'ru')}`,
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('₽');
    expect(text).not.toContain('Дата оплаты');

    const { stdout } = await run('pdffonts', [await saved(pdf)]);
    expect(stdout).toMatch(/DejaVuSans\s.*\byes\s+yes\s+yes\b/);
    expect(stdout).toMatch(/DejaVuSans-Bold\s.*\byes\s+yes\s+yes\b/);
  });

  it('flows 60 lines over several pages, repeating the table header and numbering pages', async () => {
    const lines = Array.from({ length: 60 }, (_, index) => ({
      description:
        index % 10 === 0
          ? `Item ${index + 1}: a description long enough to wrap onto a second and a third line of the column`
          : `Item ${index + 1}`,
      quantity: 1,
      unitAmount: 500,
      amount: 500,
    }));
    const pdf = await renderInvoicePdf(
      invoice({ lines, subtotal: 30000, total: 30000, amountPaid: 30000 }),
      'en',
    );
    const pages = (await pagesOf(pdf)).map(flat);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    pages.forEach((page, index) => {
      expect(page).toContain('Description Qty Unit price Amount');
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
    });
    expect(pages[1]).toContain('Invoice INV-2026-000123');
    const all = pages.join('\n');
    for (let item = 1; item <= 60; item++) {
      expect(all.match(new RegExp(`Item ${item}\\b`, 'g')), `item ${item}`).toHaveLength(1);
    }
    expect(pages.at(-1)).toContain(`Total ${money(30000, 'USD', 'en')}`);
  });

  it('cuts a description taller than the row limit rather than spill it over pages', async () => {
    const lines = [{ description: 'word '.repeat(3000), quantity: 1, unitAmount: 1, amount: 1 }];
    const pages = await pagesOf(await renderInvoicePdf(invoice({ lines }), 'en'));
    expect(pages.length).toBeLessThanOrEqual(2);
    expect(flat(pages.join('\n'))).toContain('word…');
  });

  it.each(LANGS)('speaks %s, with the currency signs of the page', async (lang) => {
    const texts = INVOICE_TEXTS[lang];
    for (const currency of ['EUR', 'JPY', 'RUB', 'USD']) {
      const doc = invoice({
        currency,
        status: 'refunded',
        lines: [{ description: 'VPN', quantity: 1, unitAmount: 1999, amount: 1999 }],
        subtotal: 1999,
        total: 1999,
        amountPaid: 1999,
        amountRefunded: 1999,
      });
      const text = await textOf(await renderInvoicePdf(doc, lang));
      expect(text).toContain(texts.title);
      expect(text).toContain(texts.status.refunded.toLocaleUpperCase(lang));
      expect(text).toContain(`${texts.total} ${money(1999, currency, lang)}`);
      expect(text).toContain(`${texts.refunded} ${money(-1999, currency, lang)}`);
      expect(text).toContain(date(doc.issuedAt, lang));
    }
  });

  it('gives the same bytes for the same invoice', async () => {
    const doc = invoice({ tax: { label: '', ratePercent: 21, amount: 3213 }, total: 18512 });
    const first = await renderInvoicePdf(doc, 'nl');
    const second = await renderInvoicePdf(doc, 'nl');
    expect(first.equals(second)).toBe(true);
    expect(await textOf(first)).toContain(`Belasting (21%) ${money(3213, 'USD', 'nl')}`);
  });

  it('renders a three-line invoice well within a second', async () => {
    await renderInvoicePdf(invoice(), 'en');
    const started = performance.now();
    await renderInvoicePdf(invoice(), 'en');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
