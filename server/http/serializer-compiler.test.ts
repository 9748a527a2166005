import Fastify from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authUserResponse } from '#shared/contracts/auth-user.ts';
import { billingAddressResponse } from '#shared/contracts/billing.ts';
import { parsesAsEncodes, serializerCompiler } from './serializer-compiler.ts';

interface TreeNode {
  name: string;
  children: TreeNode[];
}
const tree: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({ name: z.string(), children: z.array(tree) }),
);
const isoDate = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

describe('parsesAsEncodes', () => {
  it.each([
    ['the signed-in user', authUserResponse, true],
    ['a recursive lazy schema', tree, true],
    [
      'checks, refinements, unions, records, tuples',
      z.object({
        a: z
          .string()
          .trim()
          .max(3)
          .refine((text) => text !== 'x'),
        b: z.union([z.literal(1), z.null()]),
        c: z.record(z.string(), z.array(z.number().int())),
        d: z.tuple([z.boolean()], z.string()),
        e: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') })]),
      }),
      true,
    ],
    [
      'a default deep inside',
      z.object({ a: z.array(z.object({ b: z.string().default('') })) }),
      false,
    ],
    ['a billing address (defaults)', billingAddressResponse, false],
    ['a codec in a union', z.union([z.null(), isoDate]), false],
    ['a transform', z.object({ a: z.string().transform((text) => text.length) }), false],
    ['a catch behind a lazy', z.lazy(() => z.object({ a: z.string().catch('') })), false],
    ['a catchall with a prefault', z.object({}).catchall(z.string().prefault('')), false],
  ])('%s: %s', (_name, schema, expected) => {
    expect(parsesAsEncodes(schema)).toBe(expected);
  });
});

const app = Fastify();
app.setSerializerCompiler(serializerCompiler);
const answers = new Map<string, unknown>();
const routeWith = (url: string, response: z.ZodType) =>
  app.get(url, { schema: { response: { 200: response } } }, () => answers.get(url));
routeWith('/plain', z.object({ id: z.number(), name: z.string().nullable() }));
routeWith('/codec', z.object({ at: isoDate }));
routeWith('/default', z.object({ name: z.string().default('none') }));
let failure: unknown;
app.setErrorHandler((error, _request, reply) => {
  failure = error;
  return reply.code(500).send('failed');
});
afterAll(() => app.close());

async function answerOf(url: string, value: unknown) {
  answers.set(url, value);
  failure = undefined;
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.body };
}

describe('serializerCompiler', () => {
  it('answers only the declared fields, parsed', async () => {
    const leaky = { id: 1, name: null, passwordHash: 'secret', extra: { a: 1 } };
    expect(await answerOf('/plain', leaky)).toEqual({
      status: 200,
      body: '{"id":1,"name":null}',
    });
  });

  it('refuses an answer that breaks its schema', async () => {
    expect((await answerOf('/plain', { id: '1', name: null })).status).toBe(500);
    expect(isResponseSerializationError(failure)).toBe(true);
  });

  it('still encodes where encoding differs: a codec writes its wire form', async () => {
    const at = new Date('2026-11-29T10:00:00.000Z');
    expect(await answerOf('/codec', { at })).toEqual({
      status: 200,
      body: '{"at":"2026-11-29T10:00:00.000Z"}',
    });
  });

  it('and a default is not filled in on the way out, as before', async () => {
    expect((await answerOf('/default', {})).status).toBe(500);
    expect(await answerOf('/default', { name: 'a' })).toEqual({
      status: 200,
      body: '{"name":"a"}',
    });
  });
});
