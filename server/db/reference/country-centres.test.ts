import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CENTRES } from './country-centres.ts';

const MIGRATION = new URL('../migrations/0005_admin_customers.sql', import.meta.url);

/** The codes migration 0005 seeds: the first value of each row of its `countries` insert. */
function seededCodes(): string[] {
  const sql = readFileSync(MIGRATION, 'utf8');
  const insert = sql.slice(sql.indexOf('INSERT INTO "countries"'));
  const block = insert.slice(0, insert.indexOf(';'));
  return [...block.matchAll(/^\s*\('([A-Z]{2})',/gm)].map((match) => match[1] as string);
}

function centre(code: string): readonly [number, number] {
  const value = COUNTRY_CENTRES[code];
  if (value === undefined) throw new Error(`no centre for ${code}`);
  return value;
}

/** Great-circle distance in kilometres. */
function distance(a: string, b: string): number {
  const [lat1, lon1] = centre(a).map((degrees) => (degrees * Math.PI) / 180) as [number, number];
  const [lat2, lon2] = centre(b).map((degrees) => (degrees * Math.PI) / 180) as [number, number];
  const h =
    Math.sin((lat2 - lat1) / 2) ** 2 +
    Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

describe('COUNTRY_CENTRES', () => {
  it('has exactly the countries migration 0005 seeds', () => {
    const codes = seededCodes();
    expect(codes).toHaveLength(249);
    expect(Object.keys(COUNTRY_CENTRES).sort()).toEqual([...codes].sort());
  });

  it('holds only valid coordinates', () => {
    for (const [code, [latitude, longitude]] of Object.entries(COUNTRY_CENTRES)) {
      expect(latitude, code).toBeGreaterThanOrEqual(-90);
      expect(latitude, code).toBeLessThanOrEqual(90);
      expect(longitude, code).toBeGreaterThanOrEqual(-180);
      expect(longitude, code).toBeLessThanOrEqual(180);
    }
  });

  it('puts countries where they are', () => {
    expect(distance('NL', 'BE')).toBeLessThan(distance('NL', 'ES'));
    expect(distance('NL', 'BE')).toBeLessThan(300);
    expect(centre('AU')[0]).toBeLessThan(0);
    expect(centre('US')[1]).toBeLessThan(0);
    expect(centre('JP')[1]).toBeGreaterThan(120);
    expect(centre('FR')[0]).toBeGreaterThan(41);
    expect(centre('NO')[0]).toBeLessThan(72);
  });
});
