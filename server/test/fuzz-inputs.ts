import fc from 'fast-check';
import { encodeChallenge } from '#shared/challenge.ts';
import type { Endpoint } from '#shared/contracts/endpoint.ts';
import { OAUTH_PROVIDERS } from '#shared/contracts/oauth.ts';
import { inputSchema, type JsonSchema, urlParams } from './endpoint-inputs.ts';

// fast-check generators of what a hostile or careless client sends to a declared endpoint:
// values shaped by the declaration (so some calls get past validation and reach the
// service) mixed with wrong types, NUL and other awkward characters, huge strings, deep
// nesting, unknown keys, arrays for objects, numbers out of range and broken encodings.
// Used by server/http/fuzz.test.ts; free of any test runner.

/** The body limit of the app (server/app.ts); a little past it is worth sending too. */
const BODY_LIMIT = 1_048_576;

/** Characters that trip naive code: controls, lone surrogates, BOM, bidi, combining … */
const AWKWARD_CHARS = [
  '\u0000',
  '\u0001',
  '\u001b',
  '\u007f',
  '\u0085',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\ufffd',
  '\u202e',
  '\u2028',
  '\u0301',
  '\u{1f600}',
  '%',
  '%00',
  '\\',
  '"',
  "'",
  '<script>',
  '../',
  '\r\n',
  '\t',
  ' ',
  'İ',
  'ß',
  '\u{10ffff}',
  "'; drop table users; --",
];

export const awkwardString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constant('\u0000'),
      fc.constantFrom(...AWKWARD_CHARS),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** Long and very long strings, up to just past the body limit; rarely drawn. */
const hugeString: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 256, max: 70_000 }),
      fc.integer({ min: BODY_LIMIT - 64, max: BODY_LIMIT + 64 }),
    ),
    fc.constantFrom('a', '1', 'é', '\u0000', '\u{1f600}', ' '),
  )
  .map(([length, char]) => char.repeat(Math.ceil(length / char.length)));

const awkwardNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    1e308,
    -1e308,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_VALUE,
    1e-7,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Keys a body should not be able to use for anything. */
const awkwardKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'id',
    'user_id',
    'role',
    'is_admin',
    'email_verified_at',
    '',
    '\u0000',
    'a.b',
    'a[b]',
  ),
  fc.string({ maxLength: 8 }),
);

/** Any JSON-able value, awkward on purpose, a few levels deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    awkwardString,
    awkwardNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(awkwardKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Values that defeat a length or range check by one, or by a lot. */
function boundaries(schema: JsonSchema): unknown[] {
  const found: unknown[] = [];
  if (schema.maxLength !== undefined) {
    found.push('x'.repeat(schema.maxLength), 'x'.repeat(schema.maxLength + 1));
  }
  if (schema.minLength !== undefined && schema.minLength > 0) {
    found.push('x'.repeat(schema.minLength - 1), ' '.repeat(schema.minLength + 1));
  }
  if (schema.maximum !== undefined) found.push(schema.maximum, schema.maximum + 1);
  if (schema.minimum !== undefined) found.push(schema.minimum, schema.minimum - 1);
  return found;
}

function stringFor(schema: JsonSchema, name: string | undefined): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [];
  if (schema.format === 'uuid') options.push(fc.uuid());
  else if (schema.pattern) {
    try {
      const matching = fc.stringMatching(new RegExp(schema.pattern, 'u'));
      options.push(matching, matching, matching);
    } catch {
      // A pattern JavaScript cannot compile as a Unicode expression: plain strings below.
    }
  }
  // Names that tell what a field holds get values that pass its rules more often, so that
  // more calls reach the service behind the validation.
  // An e-mailed challenge or one-time token is base64url JSON of an address and a token.
  if (name === 'challenge' || name === 'token') options.push(challengeLike, challengeLike);
  if (name?.includes('password')) options.push(passwordLike, passwordLike);
  const known = name === undefined ? undefined : KNOWN_VALUES[name];
  if (known) options.push(fc.constantFrom(...known));
  options.push(
    fc.string({
      minLength: Math.min(schema.minLength ?? 0, 64),
      maxLength: Math.min(schema.maxLength ?? 64, 64),
    }),
  );
  return fc.oneof(...options);
}

/** Values a field of this name takes that its schema does not spell out (a path parameter). */
const KNOWN_VALUES: Record<string, readonly string[]> = {
  provider: OAUTH_PROVIDERS,
  provider_id: OAUTH_PROVIDERS,
  response_type: ['code'],
};

/** A password that meets the §5 rules: letters, digits and a symbol, more than 8 in all. */
const passwordLike: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...'abcXYZéЖ'), minLength: 4, maxLength: 12 }),
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 2, maxLength: 4 }),
    fc.string({ unit: fc.constantFrom(...'#!?%&*_ '), minLength: 3, maxLength: 4 }),
  )
  .map((parts) => parts.join(''));

/** A string with a NUL somewhere in it: PostgreSQL refuses those in text. */
const withNul: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
  .map(([before, after]) => `${before}\u0000${after}`);

/** A challenge as the server issues them, its address and token valid-looking or not. */
export const challengeLike: fc.Arbitrary<string> = fc
  .record(
    {
      email: fc.oneof(
        fc.emailAddress(),
        fc.emailAddress().map((email) => email.replace('@', '\u0000@')),
        withNul,
        awkwardString,
      ),
      token: fc.oneof(fc.base64String({ minLength: 44, maxLength: 44 }), awkwardString),
      force_logout: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map((challenge) => encodeChallenge(challenge));

/** A value the schema would accept, or nearly (each field may still go wrong). */
function validLooking(
  schema: JsonSchema | undefined,
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return hostileValue;
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((part) => validLooking(part, name, depth + 1)));
  const type = [schema.type ?? []].flat()[0];
  const edges = boundaries(schema);
  const edge = edges.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...edges) }] : [];
  switch (type) {
    case 'string':
      return fc.oneof({ weight: 4, arbitrary: stringFor(schema, name) }, ...edge);
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? -1_000, -1_000_000);
      const max = Math.min(schema.maximum ?? 1_000, 1_000_000);
      const inRange =
        type === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
      return fc.oneof({ weight: 4, arbitrary: inRange }, ...edge);
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(field(schema.items, undefined, depth + 1), { maxLength: 4 });
    case 'object':
      return objectFor(schema, depth);
    default:
      return hostileValue;
  }
}

/** One field: mostly what the schema wants, sometimes anything at all. */
function field(schema: JsonSchema | undefined, name?: string, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: validLooking(schema, name, depth) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/**
 * An object with the declared properties (each valid-looking or not), some of them left out
 * now and then, unknown keys added now and then, and `x_confirmation` often copied from `x`
 * (a password pair) so that the call gets as far as the service.
 */
function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const shape = Object.fromEntries(
    names.map((name) => [name, field(properties[name], name, depth + 1)]),
  );
  return fc
    .tuple(
      fc.record(shape),
      fc.option(fc.subarray(names, { maxLength: Math.min(2, names.length) }), { freq: 8 }),
      fc.option(fc.dictionary(awkwardKey, hostileValue, { maxKeys: 3 }), { freq: 5 }),
      fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
    )
    .map(([values, dropped, extra, pairUp]) => {
      const result: Record<string, unknown> = { ...(extra ?? {}), ...values };
      for (const name of dropped ?? []) delete result[name];
      if (pairUp) {
        for (const name of names) {
          const twin = `${name}_confirmation`;
          if (twin in properties) result[twin] = result[name];
        }
      }
      return result;
    });
}

/** A body as bytes on the wire: JSON of a value, or text sent as it is. */
export type FuzzBody =
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'raw'; text: string; contentType: string | undefined }
  | { kind: 'multipart'; fields: Record<string, string>; file: Uint8Array | undefined };

/** JSON the parser must survive: deep nesting (as text: no stack spent here), odd numbers. */
const rawJson: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom('[', '{"a":'))
    .map(([depth, open]) => {
      const close = open === '[' ? ']' : '}';
      return `${open.repeat(depth)}1${close.repeat(depth)}`;
    }),
  fc.integer({ min: 1, max: 100_000 }).map((depth) => `${'['.repeat(depth)}`),
  // A forbidden key deep down: the parser's prototype check must not recurse to find it.
  fc
    .integer({ min: 1, max: 100_000 })
    .map((depth) => `${'{"a":'.repeat(depth)}{"__proto__":{"x":1}}${'}'.repeat(depth)}`),
  fc.constantFrom(
    '',
    '{',
    'null',
    '1e999',
    '-1e999',
    '"\\u0000"',
    '{"a":"\\ud800"}',
    '\ufeff{}',
    '{"__proto__":{"role":"ADMIN"}}',
    '{"constructor":{"prototype":{"role":"ADMIN"}}}',
    '{"email":"a@b.co","email":"x"}',
    '[1,2,3',
    'undefined',
    'NaN',
  ),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/octet-stream',
  'image/png',
];

function bodyFor(endpoint: Endpoint): fc.Arbitrary<FuzzBody | undefined> {
  const schema = inputSchema(endpoint, 'body');
  const json = (value: fc.Arbitrary<unknown>) =>
    value.map((v): FuzzBody => ({ kind: 'json', value: v, contentType: 'application/json' }));
  const options: fc.WeightedArbitrary<FuzzBody | undefined>[] = [
    { weight: 14, arbitrary: json(validLooking(schema, undefined)) },
    { weight: 3, arbitrary: json(hostileValue) },
    { weight: 1, arbitrary: json(hugeString.map((text) => ({ huge: text }))) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('raw' as const),
        text: fc.oneof(rawJson, awkwardString, hugeString),
        contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
      }),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ];
  if (schema?.properties || schema?.anyOf) {
    // A huge value in a declared field, so the field's own length check meets it.
    const names = Object.keys(
      schema.properties ?? schema.anyOf?.find((part) => part.properties)?.properties ?? {},
    );
    if (names.length > 0) {
      options.push({
        weight: 1,
        arbitrary: json(
          fc.tuple(fc.constantFrom(...names), hugeString).map(([name, text]) => ({ [name]: text })),
        ),
      });
    }
  }
  if (endpoint.multipart) {
    options.push({
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('multipart' as const),
        fields: fc.dictionary(
          fc.oneof(fc.constantFrom('name', 'photo', 'email'), fc.string({ maxLength: 6 })),
          awkwardString,
          { maxKeys: 3 },
        ),
        file: fc.option(fc.uint8Array({ maxLength: 2048 }), { nil: undefined }),
      }),
    });
  }
  return fc.oneof(...options);
}

/** The string with each lone surrogate replaced, as a browser encodes it into a URL. */
function wellFormed(text: string): string {
  return text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
}

/** Query text as sent: key=value pairs, values from the declaration or awkward, or raw. */
function queryFor(endpoint: Endpoint): fc.Arbitrary<string> {
  const schema = inputSchema(endpoint, 'query');
  const properties = schema?.properties ?? {};
  const names = Object.keys(properties);
  const pairs = fc.array(
    fc.oneof(
      names.length > 0
        ? fc
            .constantFrom(...names)
            .chain((name) =>
              fc.tuple(
                fc.constant(name),
                fc.oneof(validLooking(properties[name], name).map(String), awkwardString),
              ),
            )
        : fc.tuple(awkwardKey, awkwardString),
      fc.tuple(
        awkwardKey,
        fc.oneof(
          awkwardString,
          hugeString.map((s) => s.slice(0, 8_000)),
        ),
      ),
    ),
    { maxLength: 5 },
  );
  const encoded = pairs.map((list) =>
    new URLSearchParams(
      list.map(([key, value]): [string, string] => [wellFormed(key), wellFormed(value)]),
    ).toString(),
  );
  const raw = fc.constantFrom(
    '%',
    '%zz',
    '%C0%80',
    '%ED%A0%80',
    '%FF',
    'page=%00',
    'page=1&page=2',
    'page[]=1',
    'page=1e999',
    'per_page=-0',
    '__proto__[role]=ADMIN',
    '&&==&',
  );
  return fc.oneof({ weight: 6, arbitrary: encoded }, { weight: 1, arbitrary: raw });
}

/** One path segment, escaped as a client would, or raw and broken. */
function paramFor(endpoint: Endpoint, name: string): fc.Arbitrary<string> {
  const declared = inputSchema(endpoint, 'params')?.properties?.[name];
  return fc.oneof(
    {
      weight: 4,
      arbitrary: validLooking(declared, name).map((v) => encodeURIComponent(wellFormed(String(v)))),
    },
    { weight: 2, arbitrary: awkwardString.map((s) => encodeURIComponent(wellFormed(s))) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%00',
        '%C0%80',
        '..%2F..%2Fetc',
        'a'.repeat(200),
        '%2e%2e',
      ),
    },
  );
}

export interface FuzzRequest {
  /** The path with its parameters filled in, and the query. */
  url: string;
  body: FuzzBody | undefined;
}

/** Requests to one declared endpoint at `url` (its registered route: base and path). */
export function requestsFor(
  endpoint: Endpoint,
  url: string,
  method: string,
): fc.Arbitrary<FuzzRequest> {
  const names = urlParams(url);
  const params = fc.tuple(...names.map((name) => paramFor(endpoint, name)));
  const query = fc.option(queryFor(endpoint), { freq: 3, nil: '' });
  const body = method === 'POST' ? bodyFor(endpoint) : fc.constant(undefined);
  return fc.tuple(params, query, body).map(([values, search, payload]) => {
    let index = 0;
    const path = url.replace(/:[A-Za-z0-9_]+/g, () => values[index++] ?? '');
    return { url: search ? `${path}?${search}` : path, body: payload };
  });
}

/** A short account of a request for a failure message: huge strings by their length. */
export function describeRequest(request: FuzzRequest): string {
  const shorten = (text: string) =>
    text.length > 300
      ? `${JSON.stringify(text.slice(0, 120))}… (${text.length} chars)`
      : JSON.stringify(text);
  const body = request.body;
  let described = 'no body';
  if (body?.kind === 'json') {
    described = `JSON ${shorten(JSON.stringify(body.value) ?? 'undefined')}`;
  } else if (body?.kind === 'raw') {
    described = `${body.contentType ?? 'no content type'} ${shorten(body.text)}`;
  } else if (body?.kind === 'multipart') {
    described = `multipart ${shorten(JSON.stringify(body.fields))} file ${body.file?.length ?? 'none'} bytes`;
  }
  return `${shorten(request.url)} with ${described}`;
}
