import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slugify } from './slugify.ts';
import { transliterate } from './transliterate.ts';

describe('transliterate', () => {
  it.each([
    ['привет мир', 'privet mir'],
    ['ёлка', 'elka'],
    ['йогурт', 'yogurt'],
    ['жук', 'zhuk'],
    ['хорошо', 'khorosho'],
    ['цена', 'tsena'],
    ['чай', 'chay'],
    ['шаг', 'shag'],
    ['щука', 'shchuka'],
    ['вы', 'vy'],
    ['это', 'eto'],
    ['юг', 'yug'],
    ['яблоко', 'yabloko'],
    ['объявление', 'obyavlenie'],
    ['соль', 'sol'],
    ['безопасность', 'bezopasnost'],
  ])('%s → %s', (russian, latin) => {
    expect(transliterate(russian)).toBe(latin);
  });

  it('keeps capitals: a capital word starts with one, a word in capitals stays in capitals', () => {
    expect(transliterate('Щука и Жук')).toBe('Shchuka i Zhuk');
    expect(transliterate('ЩУКА')).toBe('SHCHUKA');
    expect(transliterate('ВПН Ж')).toBe('VPN Zh');
    expect(transliterate('ЧАТ-бот')).toBe('CHAT-bot');
  });

  it('reads ё and й the same when they arrive decomposed', () => {
    expect(transliterate('е\u0308лка и\u0306')).toBe('elka y');
  });

  it('leaves everything but Russian letters as it is', () => {
    expect(transliterate('VPN 2026, café & 中文!')).toBe('VPN 2026, café & 中文!');
  });

  it('gives plain ASCII for any Russian letters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[а-яёА-ЯЁ ]*$/), (text) => {
        expect(transliterate(text)).toMatch(/^[a-zA-Z ]*$/);
      }),
    );
  });

  it('is what slugs are made with', () => {
    expect(slugify('Быстрый VPN для всех')).toBe('bystryy-vpn-dlya-vsekh');
  });
});
