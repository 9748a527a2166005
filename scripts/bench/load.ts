import autocannon, { type Client, type Result } from 'autocannon';
import type { BenchOptions } from './options.ts';

export interface LoadTarget {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Each request claims a new client address (X-Forwarded-For; the server trusts it). */
  varyClientAddress?: boolean;
  /** Requests take these bodies in turn (round robin) instead of `body`. */
  bodies?: string[];
}

/**
 * autocannon decodes every response body into a string, for body checks no scenario uses. That
 * is the client's work, not the server's, and it grows with the body: on two shared cores it
 * halved the rate of a bare server sending 4.5 KB (84k -> 43k/s), so pages measured the load
 * generator. The harness keeps the byte counts and drops only the decoding.
 */
function keepNoBodies(client: Client): void {
  client.pipelinedRequests.addBody = () => {};
}

let clients = 0;
/** Addresses from the 10.0.0.0/8 block, a different one per request. */
function nextClientAddress(): string {
  clients = (clients + 1) % 16_777_216;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

// autocannon's own per-request timeout; the run as a whole gets a margin on top of it.
const REQUEST_TIMEOUT_S = 10;
const RUN_MARGIN_MS = (REQUEST_TIMEOUT_S + 20) * 1000;

/** Runs autocannon for a fixed time; `signal` stops it early (Ctrl-C). */
export function runLoad(
  target: LoadTarget,
  options: BenchOptions,
  seconds: number,
  signal: AbortSignal,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('interrupted'));
    let timedOut = false;
    const { varyClientAddress, bodies, ...request } = target;
    let turn = 0;
    const perRequest = varyClientAddress || bodies?.length;
    const instance = autocannon(
      {
        ...request,
        ...(perRequest
          ? {
              requests: [
                {
                  setupRequest: (req: { headers?: Record<string, string>; body?: string }) => {
                    turn += 1;
                    return {
                      ...req,
                      ...(bodies?.length ? { body: bodies[turn % bodies.length] } : {}),
                      headers: {
                        ...req.headers,
                        ...(varyClientAddress ? { 'x-forwarded-for': nextClientAddress() } : {}),
                      },
                    };
                  },
                },
              ],
            }
          : {}),
        connections: options.connections,
        pipelining: options.pipelining,
        duration: seconds,
        timeout: REQUEST_TIMEOUT_S,
        setupClient: keepNoBodies,
      },
      (error, result) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else if (timedOut) reject(new Error(`load on ${target.url} did not finish in time`));
        else if (signal.aborted) reject(new Error('interrupted'));
        else resolve(result);
      },
    );
    const onAbort = () => instance.stop();
    signal.addEventListener('abort', onAbort, { once: true });
    // A guard in case the server stops answering in a way autocannon keeps waiting on.
    const timer = setTimeout(
      () => {
        timedOut = true;
        instance.stop();
      },
      seconds * 1000 + RUN_MARGIN_MS,
    );
  });
}
