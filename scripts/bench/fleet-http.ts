import { Agent, request } from 'node:http';

// A bare HTTP/1.1 client for the fleet: node:http over one keep-alive agent, bodies read as
// text and never parsed here. A thousand simulated nodes share the runner's one event loop
// with their long polls open, so each request must cost the runner as little as it can
// (fetch/undici's per-request machinery and a zod parse of every answer would not).

export interface Answer {
  status: number;
  body: string;
  /** From the call to the last byte of the answer. */
  ms: number;
}

export interface HttpTarget {
  host: string;
  port: number;
  agent: Agent;
}

export function httpTarget(baseUrl: string, sockets: number): HttpTarget {
  const url = new URL(baseUrl);
  return {
    host: url.hostname,
    port: Number(url.port),
    // One socket per open long poll and a few for reports and probes; keep-alive, as the
    // agent's fetch keeps its connection.
    agent: new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets }),
  };
}

export function call(
  target: HttpTarget,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: target.host,
        port: target.port,
        agent: target.agent,
        method,
        path,
        headers: {
          ...headers,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in time`)));
    req.on('error', reject);
    req.end(body);
  });
}
