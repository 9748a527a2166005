import { describe, expect, it } from 'vitest';
import { csvField, decimal } from './invoice-export.ts';

describe('the invoices CSV', () => {
  it('quotes separators, quotes and line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(42)).toBe('42');
  });

  it('keeps a spreadsheet from running text as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@sum')).toBe("'@sum");
    expect(csvField(-5)).toBe('-5');
  });

  it('writes money as a plain decimal of the currency', () => {
    expect(decimal(1299, 'USD')).toBe('12.99');
    expect(decimal(5, 'EUR')).toBe('0.05');
    expect(decimal(-1299, 'USD')).toBe('-12.99');
    expect(decimal(1500, 'JPY')).toBe('1500');
  });
});
