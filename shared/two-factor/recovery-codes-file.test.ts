import { describe, expect, it } from 'vitest';
import { LANGS } from '../locales.ts';
import { RECOVERY_CODES_HEADER, recoveryCodesFile } from './recovery-codes-file.ts';

const CODES = ['abcde-fghjk', 'mnpqr-stuvw', 'xyz23-45678'];

describe('the recovery codes file', () => {
  it('is the header, a blank line, then one code a line', () => {
    expect(recoveryCodesFile(CODES, 'en')).toBe(
      [
        'Shieldline VPN two-factor recovery codes',
        'Each code signs you in once when you cannot use your authenticator app.',
        'Keep this file somewhere safe; downloading a new set makes these codes stop working.',
        '',
        'abcde-fghjk',
        'mnpqr-stuvw',
        'xyz23-45678',
        '',
      ].join('\n'),
    );
  });

  it.each(LANGS)('has a header of its own in %s: title, use, keep it safe', (lang) => {
    const header = RECOVERY_CODES_HEADER[lang];
    expect(header).toHaveLength(3);
    expect(header[0]).toContain('Shieldline VPN');
    for (const line of header) expect(line.trim()).toBe(line);
    if (lang !== 'en') {
      for (const [index, line] of header.entries()) {
        expect(line).not.toBe(RECOVERY_CODES_HEADER.en[index]);
      }
    }
    const lines = recoveryCodesFile(CODES, lang).split('\n');
    expect(lines).toEqual([...header, '', ...CODES, '']);
  });
});
