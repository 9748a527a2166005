// Stripe's request bodies (and GET query strings) are form-encoded with nested keys:
// `line_items[0][price]=price_1`, `metadata[userId]=7`, `expand[0]=latest_invoice`. The
// stand-in reads them back into objects and arrays as Stripe's API does.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
type FormObject = { [key: string]: FormValue };

function keyPath(key: string): string[] {
  const head = /^[^[]+/.exec(key)?.[0] ?? key;
  const rest = [...key.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((match) => match[1] ?? '');
  return [head, ...rest];
}

/** Objects whose keys are all indexes become arrays (`expand[0]`, `items[1][price]`). */
function arrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: FormObject = {};
  for (const key of keys) converted[key] = arrays(value[key] as FormValue);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((index) => converted[String(index)] as FormValue);
  }
  return converted;
}

export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = keyPath(key);
    let node: FormObject = root;
    path.forEach((part, index) => {
      // `expand[]=a&expand[]=b`: an empty index appends.
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (index === path.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next !== 'object' || Array.isArray(next)) node[name] = {};
      node = node[name] as FormObject;
    });
  }
  return arrays(root) as FormObject;
}

/** Typed reads of a parsed body; a wrong shape reads as absent. */
export class Params {
  constructor(readonly raw: FormObject) {}

  has(key: string): boolean {
    return key in this.raw;
  }

  string(key: string): string | undefined {
    const value = this.raw[key];
    return typeof value === 'string' ? value : undefined;
  }

  int(key: string): number | undefined {
    const value = this.string(key);
    return value === undefined || value === '' ? undefined : Number.parseInt(value, 10);
  }

  bool(key: string): boolean | undefined {
    const value = this.string(key);
    return value === undefined ? undefined : value === 'true';
  }

  object(key: string): Params | undefined {
    const value = this.raw[key];
    return typeof value === 'object' && !Array.isArray(value) ? new Params(value) : undefined;
  }

  list(key: string): Params[] {
    const value = this.raw[key];
    if (!Array.isArray(value)) return [];
    return value.flatMap((entry) =>
      typeof entry === 'object' && !Array.isArray(entry) ? [new Params(entry)] : [],
    );
  }

  strings(key: string): string[] {
    const value = this.raw[key];
    if (!Array.isArray(value)) return [];
    return value.filter((entry): entry is string => typeof entry === 'string');
  }

  /** `metadata[k]=v` pairs; an empty value removes the key, as Stripe does. */
  metadata(held: Record<string, string>, key = 'metadata'): Record<string, string> {
    const given = this.object(key);
    if (!given && this.string(key) === '') return {};
    if (!given) return held;
    const merged = { ...held };
    for (const [name, value] of Object.entries(given.raw)) {
      if (typeof value !== 'string') continue;
      if (value === '') delete merged[name];
      else merged[name] = value;
    }
    return merged;
  }
}
