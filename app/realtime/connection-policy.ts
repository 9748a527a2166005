// §8/§9 When the live connection tries again, as a pure state machine: the pusher-js glue
// (realtime-client.ts) reports what happened and carries out the commands; every timing
// decision is made here, never by pusher-js's own retry loops.

/** §8 "A network error retries after 1 s". */
export const NETWORK_RETRY_MS = 1_000;
/** §8 "Error or close triggers reconnect every 5 s". */
export const RECONNECT_MS = 5_000;
/** §9 "authorisation delay 500 ms": the channel is joined this long after connecting. */
export const AUTHORIZATION_DELAY_MS = 500;

export type Phase = 'idle' | 'connecting' | 'connected' | 'waiting' | 'stopped';

export interface PolicyState {
  phase: Phase;
  /**
   * Failures since the channel was last joined. The first network error after a working
   * connection is a blip worth retrying at once (1 s); after that, the 5 s cadence holds,
   * so an outage does not turn into a request a second.
   */
  failures: number;
}

export type PolicyEvent =
  /** A signed-in user is present: open the connection. */
  | { type: 'start' }
  /** The wait before the next attempt is over. */
  | { type: 'retryDue' }
  | { type: 'connected' }
  /** The socket failed to open, errored or closed; `network` for a network error. */
  | { type: 'socketFailed'; network: boolean }
  | { type: 'joined' }
  /** broadcasting/auth or the server refused the channel; status 0 when nothing answered. */
  | { type: 'joinFailed'; status: number }
  /** Logout: close and never reconnect (§4). */
  | { type: 'stop' };

export type PolicyCommand =
  | { type: 'connect' }
  /** Drop the socket and anything pusher-js scheduled; `connect` comes back after the delay. */
  | { type: 'retryIn'; delayMs: number }
  | { type: 'joinIn'; delayMs: number }
  /** For good: no reconnection, no rejoin. */
  | { type: 'close' };

export interface Step {
  state: PolicyState;
  commands: PolicyCommand[];
}

export const INITIAL_STATE: PolicyState = { phase: 'idle', failures: 0 };

/** Only a real refusal of the channel ends live updates (§8); anything else is transient. */
export function isRefusal(status: number): boolean {
  return status === 401 || status === 403;
}

function delayAfter(network: boolean, failures: number): number {
  return network && failures === 0 ? NETWORK_RETRY_MS : RECONNECT_MS;
}

const stay = (state: PolicyState): Step => ({ state, commands: [] });

export function step(state: PolicyState, event: PolicyEvent): Step {
  if (state.phase === 'stopped') return stay(state);
  switch (event.type) {
    case 'stop':
      return { state: { ...state, phase: 'stopped' }, commands: [{ type: 'close' }] };
    case 'start':
      if (state.phase !== 'idle') return stay(state);
      return { state: { ...state, phase: 'connecting' }, commands: [{ type: 'connect' }] };
    case 'retryDue':
      if (state.phase !== 'waiting') return stay(state);
      return { state: { ...state, phase: 'connecting' }, commands: [{ type: 'connect' }] };
    case 'connected':
      return {
        state: { ...state, phase: 'connected' },
        commands: [{ type: 'joinIn', delayMs: AUTHORIZATION_DELAY_MS }],
      };
    case 'socketFailed': {
      // An error and the close that follows it are one failure: the retry stands.
      if (state.phase === 'waiting' || state.phase === 'idle') return stay(state);
      const delayMs = delayAfter(event.network, state.failures);
      return {
        state: { phase: 'waiting', failures: state.failures + 1 },
        commands: [{ type: 'retryIn', delayMs }],
      };
    }
    case 'joined':
      return stay({ ...state, failures: 0 });
    case 'joinFailed': {
      if (isRefusal(event.status)) {
        // §8 "Websocket authorisation failure closes the socket."
        return { state: { ...state, phase: 'stopped' }, commands: [{ type: 'close' }] };
      }
      // A join can only be retried on the socket it was meant for; a new one joins anew.
      if (state.phase !== 'connected') return stay(state);
      const delayMs = delayAfter(event.status === 0, state.failures);
      return {
        state: { ...state, failures: state.failures + 1 },
        commands: [{ type: 'joinIn', delayMs }],
      };
    }
  }
}
