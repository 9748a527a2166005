import { describe, expect, it } from 'vitest';
import {
  AUTHORIZATION_DELAY_MS,
  INITIAL_STATE,
  NETWORK_RETRY_MS,
  type PolicyCommand,
  type PolicyEvent,
  type PolicyState,
  RECONNECT_MS,
  step,
} from './connection-policy.ts';

/** Runs the events from the start and answers the commands of each step. */
function run(events: PolicyEvent[], from: PolicyState = INITIAL_STATE) {
  let state = from;
  const commands: PolicyCommand[][] = [];
  for (const event of events) {
    const next = step(state, event);
    state = next.state;
    commands.push(next.commands);
  }
  return { state, commands, last: commands.at(-1) ?? [] };
}

const start: PolicyEvent = { type: 'start' };
const connected: PolicyEvent = { type: 'connected' };
const joined: PolicyEvent = { type: 'joined' };
const due: PolicyEvent = { type: 'retryDue' };
const network: PolicyEvent = { type: 'socketFailed', network: true };
const closed: PolicyEvent = { type: 'socketFailed', network: false };
const joinFailed = (status: number): PolicyEvent => ({ type: 'joinFailed', status });
const retryIn = (delayMs: number): PolicyCommand[] => [{ type: 'retryIn', delayMs }];
const joinIn = (delayMs: number): PolicyCommand[] => [{ type: 'joinIn', delayMs }];
const live = [start, connected, joined];

describe('live connection policy (§8, §9)', () => {
  it('connects at start and joins the channel 500 ms after connecting', () => {
    const { commands, state } = run([start, connected]);
    expect(commands).toEqual([[{ type: 'connect' }], joinIn(AUTHORIZATION_DELAY_MS)]);
    expect(state.phase).toBe('connected');
  });

  it.each<[string, PolicyEvent[], PolicyCommand[]]>([
    ['a network error on a live socket retries after 1 s', [...live, network], retryIn(1_000)],
    ['a close of a live socket reconnects after 5 s', [...live, closed], retryIn(5_000)],
    ['a failed first attempt from the network retries after 1 s', [start, network], retryIn(1_000)],
    ['a timed-out or refused attempt retries after 5 s', [start, closed], retryIn(5_000)],
    [
      'a network error that persists then retries every 5 s',
      [...live, network, due, network],
      retryIn(5_000),
    ],
    ['…and keeps that cadence', [...live, network, due, network, due, network], retryIn(5_000)],
    [
      'a socket that connects but cannot join still counts its failures',
      [...live, network, due, connected, network],
      retryIn(5_000),
    ],
    [
      'a joined channel starts the count again',
      [...live, network, due, connected, joined, network],
      retryIn(1_000),
    ],
  ])('%s', (_title, events, expected) => {
    expect(run(events).last).toEqual(expected);
  });

  it('uses the §8 constants', () => {
    expect([NETWORK_RETRY_MS, RECONNECT_MS, AUTHORIZATION_DELAY_MS]).toEqual([1_000, 5_000, 500]);
  });

  it('treats an error and the close after it as one failure', () => {
    const { commands, state } = run([...live, network, closed, closed]);
    expect(commands.slice(-2)).toEqual([[], []]);
    expect(state).toEqual({ phase: 'waiting', failures: 1 });
  });

  it('connects again when the wait is over, not before', () => {
    expect(run([...live, network, connected]).state.phase).toBe('connected');
    expect(run([...live, network, due]).last).toEqual([{ type: 'connect' }]);
    // A stray timer after the socket came back does nothing.
    expect(run([...live, due]).last).toEqual([]);
  });

  it.each([401, 403])('closes for good when broadcasting/auth refuses with %i', (status) => {
    const refused = run([...live, closed, due, connected, joinFailed(status)]);
    expect(refused.last).toEqual([{ type: 'close' }]);
    expect(refused.state.phase).toBe('stopped');
    for (const event of [start, connected, network, closed, due, joinFailed(503)]) {
      expect(step(refused.state, event)).toEqual({ state: refused.state, commands: [] });
    }
  });

  it.each<[number, number]>([
    [0, 1_000],
    [429, 5_000],
    [500, 5_000],
    [502, 5_000],
    [503, 5_000],
    [422, 5_000],
  ])('retries the join after a transient failure %i (after %i ms)', (status, delay) => {
    const { last, state } = run([start, connected, joinFailed(status)]);
    expect(last).toEqual(joinIn(delay));
    expect(state.phase).toBe('connected');
  });

  it('retries a join that keeps failing from the network every 5 s', () => {
    expect(run([start, connected, joinFailed(0), joinFailed(0)]).last).toEqual(joinIn(5_000));
  });

  it('leaves a transient join failure on a dropped socket to the reconnection', () => {
    expect(run([...live, closed, joinFailed(503)]).last).toEqual([]);
  });

  it('stops at logout and never reconnects', () => {
    const stopped = run([...live, network, { type: 'stop' }]);
    expect(stopped.last).toEqual([{ type: 'close' }]);
    expect(step(stopped.state, due).commands).toEqual([]);
    expect(step(stopped.state, { type: 'stop' }).commands).toEqual([]);
  });

  it('starts once', () => {
    expect(run([start, start]).last).toEqual([]);
    expect(run([{ type: 'socketFailed', network: true }]).last).toEqual([]);
  });
});
