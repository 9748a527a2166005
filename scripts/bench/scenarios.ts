import type { ServerName } from './servers.ts';

export interface SetupContext {
  /** `http://127.0.0.1:<port>` of the scenario's server. */
  baseUrl: string;
  /** A bounded request to the scenario's server; throws unless the status is 2xx. */
  request(method: string, path: string, body?: unknown): Promise<Response>;
}

export interface Scenario {
  name: string;
  server: ServerName;
  /** Defaults to GET. */
  method?: string;
  /** A path on the scenario's server: the harness only ever talks to loopback. */
  path: string;
  /** Sent as JSON with a matching content-type. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Every measured response must have this status, else the run fails. Defaults to 200. */
  expectStatus?: number;
  /** Runs once before the warm-up, e.g. to create a user; the headers it returns are sent. */
  setup?: (context: SetupContext) => Promise<Record<string, string> | undefined>;
}

/** Every scenario is reported as a ratio to this one. */
export const BASELINE: Scenario = { name: 'bare-hello', server: 'bare', path: '/' };

// One entry per endpoint worth watching. Add authenticated ones with a `setup` that signs a
// user up and returns `{ cookie }` built from the response's set-cookie header.
export const SCENARIOS: Scenario[] = [{ name: 'healthz', server: 'product', path: '/healthz' }];
