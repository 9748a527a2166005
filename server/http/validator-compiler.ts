import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { isStorableText } from '#shared/validation/storable-text.ts';
import { FIELD_IS_INVALID } from '#shared/validation/zod-messages.ts';

const unstorable = (text: string) => !isStorableText(text);

/** Reporting a few is enough to show the form where; a hostile body may hold thousands. */
const MAX_REPORTED = 10;

interface Node {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Node | undefined;
}

function pathOf(node: Node): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The paths of the strings in `input` that PostgreSQL cannot store (a NUL, a lone
 * surrogate), object keys included (reported at the object holding them), shallowest first
 * and at most a few. Such a value would otherwise travel to the database and come back as a
 * 500. Walked breadth-first with a queue rather than recursion: a body may nest arrays a
 * hundred thousand deep.
 */
export function unstorableTextPaths(input: unknown): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  const queue: Node[] = [{ value: input, key: undefined, parent: undefined }];
  for (let head = 0; head < queue.length && found.length < MAX_REPORTED; head += 1) {
    const node = queue[head] as Node;
    const { value } = node;
    if (typeof value === 'string') {
      if (unstorable(value)) found.push(pathOf(node));
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        queue.push({ value: item, key: index, parent: node });
      });
    } else if (typeof value === 'object' && value !== null) {
      let badKey = false;
      for (const [key, item] of Object.entries(value)) {
        if (unstorable(key)) badKey = true;
        else queue.push({ value: item, key, parent: node });
      }
      if (badKey) found.push(pathOf(node));
    }
  }
  return found;
}

/** One rule for every string the API takes: text the database can store, wherever it sits. */
const storableText = z.unknown().superRefine((value, ctx) => {
  for (const path of unstorableTextPaths(value)) {
    ctx.addIssue({ code: 'custom', message: FIELD_IS_INVALID, path });
  }
});

/**
 * The zod validator compiler behind the text rule, for the body, query and params of every
 * route: a string with a NUL or a lone surrogate in it is refused (422, `field_is_invalid`
 * under the field's path, as any zod issue is reported) before the route's own schema runs,
 * so no route has to think of it.
 */
export function refusingUnstorableText(
  compiler: FastifySchemaCompiler<z.ZodType>,
): FastifySchemaCompiler<z.ZodType> {
  return (route) => compiler({ ...route, schema: storableText.pipe(route.schema) });
}
