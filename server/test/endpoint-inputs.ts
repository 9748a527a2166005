import { z } from 'zod';
import type { Endpoint } from '#shared/contracts/endpoint.ts';

// What an endpoint declaration says a caller sends, as JSON Schema (the same document the
// OpenAPI page shows), for the tests that call every route: the authorization matrix and the
// fuzz test. Free of any test runner.

/** The part of JSON Schema that zod's `toJSONSchema` writes for our request schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

export const INPUT_PARTS = ['params', 'query', 'body'] as const;
export type InputPart = (typeof INPUT_PARTS)[number];

/** The JSON Schema of what the caller sends in `part`, or undefined when nothing is declared. */
export function inputSchema(endpoint: Endpoint, part: InputPart): JsonSchema | undefined {
  const schema = endpoint[part];
  if (!schema) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** The schemas a schema is made of, one level down. */
function children(schema: JsonSchema): JsonSchema[] {
  const found: JsonSchema[] = [];
  for (const list of [schema.anyOf, schema.oneOf, schema.allOf, schema.prefixItems]) {
    if (list) found.push(...list);
  }
  if (schema.items) found.push(schema.items);
  if (typeof schema.additionalProperties === 'object') found.push(schema.additionalProperties);
  if (schema.$defs) found.push(...Object.values(schema.$defs));
  return found;
}

/** Every property name the schema declares, at any depth (nested objects, arrays, unions). */
export function propertyNames(root: JsonSchema): string[] {
  const names = new Set<string>();
  const seen = new Set<JsonSchema>();
  const pending = [root];
  for (let schema = pending.pop(); schema !== undefined; schema = pending.pop()) {
    if (seen.has(schema)) continue;
    seen.add(schema);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      names.add(name);
      pending.push(property);
    }
    pending.push(...children(schema));
  }
  return [...names];
}

/** The `:name` parameters of a route's URL (a wildcard `*` is not one). */
export function urlParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
}

/**
 * Every name a caller sends to the route, with where: path parameters of its URL (declared or
 * not) and the properties of the declared query and body, at any depth.
 */
export function inputNames(
  url: string,
  endpoint: Endpoint | undefined,
): { part: InputPart; name: string }[] {
  const found = new Map<string, { part: InputPart; name: string }>();
  const add = (part: InputPart, name: string) => found.set(`${part} ${name}`, { part, name });
  for (const name of urlParams(url)) add('params', name);
  if (endpoint) {
    for (const part of INPUT_PARTS) {
      const schema = inputSchema(endpoint, part);
      if (schema) for (const name of propertyNames(schema)) add(part, name);
    }
  }
  return [...found.values()];
}
