import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The house rules of DESIGN "Layout" and "Test stand-ins", read from the source itself:
// production code never imports a test file or a dev dependency (a type-only import of one is
// erased, so it is fine), `shared/` imports nothing from `app/` or `server/`, and `app/` and
// `server/` never import each other. No app is built: the files are parsed with TypeScript.

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const ROOMS = ['server', 'shared', 'app', 'vpn-node'] as const;
type Room = (typeof ROOMS)[number];

/** Tests, and the tooling only tests use. */
function isTestFile(path: string): boolean {
  return (
    /\.test\.tsx?$/.test(path) ||
    path.startsWith('server/test/') ||
    path.startsWith('app/test/') ||
    path.startsWith('vpn-node/test/')
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(resolve(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface ImportRef {
  specifier: string;
  /** Erased from the JavaScript: `import type`, `export type … from`, `typeof import()`. */
  typeOnly: boolean;
  line: number;
}

/** Every module a file names: static, re-export, dynamic and type-position imports. */
function importsOf(path: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: ImportRef[] = [];
  const add = (literal: ts.Node, typeOnly: boolean) => {
    if (!ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart()).line + 1;
    found.push({ specifier: literal.text, typeOnly, line });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly ?? false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument) add(argument, false);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

type Target =
  | { kind: 'file'; path: string; room: Room | undefined }
  | { kind: 'package'; name: string }
  | { kind: 'builtin' };

const ALIASES: Record<string, Room> = {
  '#app/': 'app',
  '#server/': 'server',
  '#shared/': 'shared',
};

function existing(path: string): string {
  for (const candidate of [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`]) {
    try {
      if (statSync(resolve(ROOT, candidate)).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return path;
}

/** What a specifier in `from` names: a file of the repository, a package, or Node itself. */
function resolveImport(from: string, specifier: string): Target {
  // A bundler suffix (`?url`, `?raw`) names the same file; `#` starts an alias here.
  const bare = specifier.replace(/\?.*$/, '');
  const alias = Object.keys(ALIASES).find((prefix) => bare.startsWith(prefix));
  let path: string | undefined;
  if (alias) path = `${ALIASES[alias]}/${bare.slice(alias.length)}`;
  else if (bare.startsWith('.')) path = posix.normalize(posix.join(posix.dirname(from), bare));
  if (path !== undefined) {
    const file = existing(path);
    const room = ROOMS.find((name) => file.startsWith(`${name}/`));
    return { kind: 'file', path: file, room };
  }
  if (bare.startsWith('node:') || builtinModules.includes(bare)) return { kind: 'builtin' };
  const parts = bare.split('/');
  const name = bare.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? bare);
  return { kind: 'package', name };
}

const manifest = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const DEV_DEPENDENCIES = new Set(
  Object.keys(manifest.devDependencies ?? {}).filter((name) => !manifest.dependencies?.[name]),
);

/** Which rooms a room may not import from. */
const FORBIDDEN_ROOMS: Record<Room, readonly Room[]> = {
  shared: ['app', 'server', 'vpn-node'],
  app: ['server', 'vpn-node'],
  server: ['app', 'vpn-node'],
  // The node agent could ship alone (DESIGN): only shared/ and its own files.
  'vpn-node': ['app', 'server'],
};

interface Violation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

function violationsOf(file: string, text: string): Violation[] {
  const room = ROOMS.find((name) => file.startsWith(`${name}/`));
  const production = !isTestFile(file);
  const violations: Violation[] = [];
  for (const { specifier, typeOnly, line } of importsOf(file, text)) {
    const target = resolveImport(file, specifier);
    const report = (rule: string) => violations.push({ file, line, specifier, rule });
    if (target.kind === 'file') {
      if (production && isTestFile(target.path)) report('production code imports a test file');
      // A test may use another room's test tooling (waiting for a condition, say).
      const tooling = !production && isTestFile(target.path);
      if (room && target.room && !tooling && FORBIDDEN_ROOMS[room].includes(target.room)) {
        report(`${room}/ imports from ${target.room}/`);
      }
    } else if (target.kind === 'package') {
      const devOnly = DEV_DEPENDENCIES.has(target.name) && !target.name.startsWith('@types/');
      if (production && devOnly && !typeOnly) {
        report(`production code imports the dev dependency ${target.name}`);
      }
    }
  }
  return violations;
}

const files = ROOMS.flatMap((room) => sourceFiles(room));

/**
 * Violations known and reported, waiting for their owner to move the file; keyed by
 * `file imports 'specifier'`. The test fails on any other, and on an entry that no longer
 * happens (delete it then).
 */
const KNOWN_VIOLATIONS: Record<string, string> = {};

describe('import boundaries', () => {
  it('finds the source of every room, tests and production alike', () => {
    expect(files).toContain('server/app.ts');
    expect(files).toContain('vpn-node/agent.ts');
    expect(files).toContain('shared/contracts/endpoint.ts');
    expect(files).toContain('app/router.tsx');
    expect(files.filter(isTestFile).length).toBeGreaterThan(10);
  });

  it('no production file imports a test file or a dev dependency, and the rooms stay apart', () => {
    const violations = files.flatMap((file) =>
      violationsOf(file, readFileSync(resolve(ROOT, file), 'utf8')),
    );
    const known = (v: Violation) => `${v.file} imports '${v.specifier}'` in KNOWN_VIOLATIONS;
    const lines = violations
      .filter((v) => !known(v))
      .map((v) => `${v.file}:${v.line} imports '${v.specifier}': ${v.rule}`);
    expect(lines, `import boundary violations:\n${lines.join('\n')}`).toEqual([]);
    const seen = new Set(violations.map((v) => `${v.file} imports '${v.specifier}'`));
    const gone = Object.keys(KNOWN_VIOLATIONS).filter((entry) => !seen.has(entry));
    expect(gone, 'known violations that no longer happen: delete them').toEqual([]);
  });
});

// The checker itself, on made-up files: it must see each kind of import and tell them apart.
describe('the boundary checker', () => {
  const check = (file: string, text: string) => violationsOf(file, text).map((v) => v.rule);

  it('tells production from test code', () => {
    expect(isTestFile('server/http/api.ts')).toBe(false);
    expect(isTestFile('server/http/api.test.ts')).toBe(true);
    expect(isTestFile('app/ui/modal.test.tsx')).toBe(true);
    expect(isTestFile('server/test/test-app.ts')).toBe(true);
    expect(isTestFile('app/test/setup.ts')).toBe(true);
  });

  it('follows relative imports and the aliases to test files', () => {
    for (const text of [
      "import { createTestApp } from '../test/test-app.ts';",
      "export { createTestApp } from '#server/test/test-app.ts';",
      "const helper = await import('../test/test-app.ts');",
      "import '../http/api.test.ts';",
    ]) {
      expect(check('server/http/x.ts', text), text).toEqual([
        'production code imports a test file',
      ]);
    }
    expect(check('server/http/x.test.ts', "import '../test/test-app.ts';")).toEqual([]);
  });

  it('refuses a dev dependency at run time, not as a type', () => {
    expect(check('server/x.ts', "import fc from 'fast-check';")).toEqual([
      'production code imports the dev dependency fast-check',
    ]);
    expect(check('app/x.ts', "import { render } from 'vitest-browser-react/pure';")).toEqual([
      'production code imports the dev dependency vitest-browser-react',
    ]);
    expect(check('server/x.ts', "import type { Provider } from 'oidc-provider';")).toEqual([]);
    expect(check('server/x.ts', "export type { Options } from 'smtp-server';")).toEqual([]);
    expect(check('server/x.ts', "type P = typeof import('oidc-provider');")).toEqual([]);
    expect(check('server/x.ts', "import type { Pool } from '@types/pg';")).toEqual([]);
    expect(
      check('server/x.ts', "import { z } from 'zod'; import { join } from 'node:path';"),
    ).toEqual([]);
    expect(check('server/x.test.ts', "import fc from 'fast-check';")).toEqual([]);
  });

  it('keeps shared free of app and server, and app and server apart', () => {
    expect(check('shared/x.ts', "import { App } from '#server/http/types.ts';")).toEqual([
      'shared/ imports from server/',
    ]);
    expect(
      check('shared/x.ts', "import type { Route } from '../app/routes/route-table.ts';"),
    ).toEqual(['shared/ imports from app/']);
    expect(check('app/x.ts', "import type { App } from '../server/http/types.ts';")).toEqual([
      'app/ imports from server/',
    ]);
    expect(check('server/x.ts', "import { ROUTES } from '#app/routes/route-table.ts';")).toEqual([
      'server/ imports from app/',
    ]);
    expect(check('app/x.ts', "import { z } from '#shared/contracts/auth.ts';")).toEqual([]);
  });

  it('keeps the node agent to shared/ and its own files, but for tests using test tooling', () => {
    expect(check('vpn-node/x.ts', "import { AppError } from '#server/http/app-error.ts';")).toEqual(
      ['vpn-node/ imports from server/'],
    );
    expect(check('server/x.ts', "import { Agent } from '../vpn-node/agent.ts';")).toEqual([
      'server/ imports from vpn-node/',
    ]);
    expect(
      check('vpn-node/x.ts', "import { nodeEndpoints } from '#shared/contracts/vpn-node.ts';"),
    ).toEqual([]);
    expect(
      check('vpn-node/x.test.ts', "import { until } from '#server/test/wait-until.ts';"),
    ).toEqual([]);
    expect(check('vpn-node/x.test.ts', "import { buildApp } from '#server/app.ts';")).toEqual([
      'vpn-node/ imports from server/',
    ]);
  });
});
