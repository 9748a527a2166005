import { describe, expect, it } from 'vitest';
import {
  DESCRIPTION_CHARS,
  DESCRIPTION_MAX_PIXELS,
  descriptionPixels,
  TITLE_CHARS,
  TITLE_MAX_PIXELS,
  titlePixels,
} from './text-width.ts';

describe('text width', () => {
  it('exports the limits the checks use', () => {
    expect(TITLE_MAX_PIXELS).toBe(580);
    expect(DESCRIPTION_MAX_PIXELS).toBe(920);
    expect(TITLE_CHARS).toEqual({ min: 30, max: 60 });
    expect(DESCRIPTION_CHARS).toEqual({ min: 120, max: 156 });
  });

  // Arial's advances (thousandths of an em) × 20px for titles, × 14px for descriptions.
  it.each([
    ['', 0, 0],
    ['VPN', 41, 29],
    ['iiii', 18, 12],
    ['WWWW', 76, 53],
    ['Привет', 68, 47],
    ['中文', 22, 16],
    ['Fast VPN for Streaming, Gaming and Privacy on Every Device', 554, 387],
  ])('%j is %ipx as a title and %ipx as a description', (text, title, description) => {
    expect(titlePixels(text)).toBe(title);
    expect(descriptionPixels(text)).toBe(description);
  });

  it('measures by width, not characters: 31 capital Ws are too wide for a title', () => {
    const text = 'W'.repeat(31);
    expect(text.length).toBeLessThanOrEqual(TITLE_CHARS.max);
    expect(titlePixels(text)).toBe(585);
    expect(titlePixels('i'.repeat(60))).toBe(266);
    expect(descriptionPixels('a'.repeat(100))).toBe(778);
  });

  it('reads accented letters as their base letter, composed or not', () => {
    expect(titlePixels('Café Ünïcode')).toBe(titlePixels('Cafe Unicode'));
    expect(titlePixels('Cafe\u0301')).toBe(titlePixels('Café'));
    expect(titlePixels('ёЁйЙ')).toBe(titlePixels('еЕиИ'));
  });

  it('gives line breaks a space’s width and zero-width characters none', () => {
    expect(titlePixels('a\nb')).toBe(titlePixels('a b'));
    expect(titlePixels('a\u200bb\ufeff')).toBe(titlePixels('ab'));
  });

  it('grows with the text', () => {
    expect(titlePixels('VPN VPN')).toBeGreaterThan(titlePixels('VPN'));
    expect(descriptionPixels('Secure')).toBeLessThan(titlePixels('Secure'));
  });
});
