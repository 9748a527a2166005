// Every request the fault suite makes through the balancer, timed and kept, so each fault's
// window can be read afterwards: how many failed and how slow the slowest were.

export interface Sample {
  /** performance.now() when sent. */
  at: number;
  ms: number;
  /** The HTTP status; 0 when no answer came (connection cut, timeout). */
  status: number;
  kind: string;
  /** For a failure only: the call and what came back, to say why (`POST /api/… → 503 unavailable`). */
  failure?: string;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

export class Traffic {
  readonly samples: Sample[] = [];
  #addresses = 0;

  constructor(readonly baseUrl: string) {}

  /**
   * A call as the browser makes it (the CSRF header), from its own client address (the
   * balancer appends the real hop; the app believes the one before it), so the per-address
   * limits meant for one attacker do not throttle a crowd.
   */
  async call(
    kind: string,
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    this.#addresses += 1;
    const n = this.#addresses;
    const headers: Record<string, string> = {
      'x-requested-with': 'fetch',
      'x-forwarded-for': `198.18.${(n >> 8) & 255}.${n & 255}`,
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const at = performance.now();
    try {
      const response = await fetch(new URL(path, this.baseUrl), {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: kept as text.
      }
      const sample: Sample = { at, ms: performance.now() - at, status: response.status, kind };
      if (response.status >= 500) {
        const code = (parsed as { code?: unknown } | null)?.code;
        sample.failure = `${method} ${path} → ${response.status} ${typeof code === 'string' ? code : text.slice(0, 80)}`;
      }
      this.samples.push(sample);
      return { status: response.status, body: parsed, headers: response.headers };
    } catch (error) {
      const cause = error instanceof Error ? ((error.cause as Error | undefined) ?? error) : null;
      this.samples.push({
        at,
        ms: performance.now() - at,
        status: 0,
        kind,
        failure: `${method} ${path} → no answer (${cause?.message ?? String(error)})`,
      });
      return { status: 0, body: undefined, headers: new Headers() };
    }
  }
}

export interface WindowFigures {
  requests: number;
  failed: number;
  errorRate: number;
  p99Ms: number;
  /** From the window's start to the last failed request's answer (0: none failed). */
  failingForMs: number;
  /** The first few failures, each said once with how often it came. */
  firstFailures: string[];
}

/** Requests sent within [from, to): a failure is no answer or a 5xx. */
export function figures(samples: readonly Sample[], from: number, to: number): WindowFigures {
  const inside = samples.filter((sample) => sample.at >= from && sample.at < to);
  const failed = inside.filter((sample) => sample.status === 0 || sample.status >= 500).length;
  const sorted = inside.map((sample) => sample.ms).sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
  const failures = inside.filter((sample) => sample.status === 0 || sample.status >= 500);
  const lastFailure = Math.max(from, ...failures.map((sample) => sample.at + sample.ms));
  return {
    requests: inside.length,
    failed,
    errorRate: inside.length > 0 ? failed / inside.length : 0,
    p99Ms: Math.round(p99),
    failingForMs: Math.round(lastFailure - from),
    firstFailures: firstFailures(failures),
  };
}

/** Up to three different failures, in the order they came, with their counts. */
function firstFailures(failures: readonly Sample[]): string[] {
  const counts = new Map<string, number>();
  for (const sample of failures) {
    // The path's numbers vary (ids): the same failure on two records is one failure.
    const what = (sample.failure ?? `${sample.kind} → ${sample.status}`).replace(
      /\/\d+(?=\/|\?| )/g,
      '/:n',
    );
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  return [...counts].slice(0, 3).map(([what, count]) => `${what} (×${count})`);
}
