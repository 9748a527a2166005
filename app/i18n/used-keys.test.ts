import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '#shared/audit-actions.ts';
import { ERROR_MESSAGES } from '#shared/contracts/errors.ts';
import { FEATURES } from '#shared/features.ts';
import { adminMenu, userMenu } from '../layout/menus.ts';
import { FOOTER_LINKS } from '../layout/site-links.ts';
import { ROUTES } from '../routes/route-table.ts';
import { titleKey } from '../routes/route-titles.ts';

// Every message key the code names exists in English (and so, by locales.test.ts, in every
// language). Literal keys are found by scanning the source for quoted strings that start
// with one of the message files' top-level keys; keys built at run time are listed here.
const root = join(import.meta.dirname, '..', '..');
const english: Record<string, unknown> = Object.assign(
  {},
  ...readdirSync(join(import.meta.dirname, 'locales', 'en')).map((file) =>
    JSON.parse(readFileSync(join(import.meta.dirname, 'locales', 'en', file), 'utf8')),
  ),
);

function has(key: string): boolean {
  let node: unknown = english;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => join(root, folder, file));
}

describe('message keys used by the code', () => {
  const namespaces = Object.keys(english).join('|');
  const literal = new RegExp(`['"\`]((?:${namespaces})\\.[A-Za-z0-9_.-]+)['"\`]`, 'g');

  // Audit action names look like keys (`auth.signed_in`) but are not; their labels are
  // checked below.
  const notMessages = new Set([join(root, 'shared', 'audit-actions.ts')]);

  it('finds every quoted key in the message files', () => {
    const missing: string[] = [];
    for (const file of [...sources('app'), ...sources('shared')]) {
      if (notMessages.has(file)) continue;
      for (const [, key] of readFileSync(file, 'utf8').matchAll(literal)) {
        if (key && !key.endsWith('.') && !has(key)) missing.push(`${relative(root, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names every audit action for the log viewer', () => {
    const unnamed = AUDIT_ACTIONS.filter(
      (action) => !has(`staff.audit_actions.${action.replace('.', '_')}`),
    );
    expect(unnamed).toEqual([]);
  });

  it('has a title for every route that renders', () => {
    const routes = ROUTES.filter((route) => !route.redirect);
    expect(routes.map((route) => titleKey(route.name)).filter((key) => !has(key))).toEqual([]);
  });

  it('has a label for every menu entry, site link and error code', () => {
    const keys = [
      ...userMenu({ features: ['billing', 'family_sharing'], hasSubscription: false }),
      ...adminMenu('ADMIN', FEATURES),
    ].map((entry) => entry.label);
    keys.push(...FOOTER_LINKS.map((link) => `site.${link}`), ...Object.values(ERROR_MESSAGES));
    expect(keys.filter((key) => !has(key))).toEqual([]);
  });
});
