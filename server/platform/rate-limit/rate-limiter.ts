import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { ErrorCode } from '#shared/contracts/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { RateLimitStore } from './store.ts';

/** One counter to hit: `name` says what is limited, `key` whose attempts are counted. */
export interface RateLimitRule {
  name: string;
  key: string;
  limit: number;
  windowMs: number;
}

/** The part of Fastify's logger the limiter uses. */
export interface RateLimitLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Counts attempts against named limits and refuses the ones over a limit with 429 and
 * Retry-After.
 *
 * When the store fails (Redis down or slow) the limiter fails open: the attempt is let
 * through and the failure logged as an error. Failing closed would turn a Redis outage into
 * an outage of sign-in, sign-up and password reset for every user, while failing open only
 * removes a throttle for the length of the outage; argon2id and our password rules still
 * stand between a guesser and an account.
 */
export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly log: RateLimitLog,
    /**
     * Every limit multiplied (RATE_LIMIT_SCALE): for browser test runs and load tests, whose
     * requests all come from one address. 1 in production.
     */
    private readonly scale = 1,
  ) {}

  private limitOf(rule: RateLimitRule): number {
    return rule.limit * this.scale;
  }

  /**
   * Counts the attempt against every rule, even ones already over (so a client cannot
   * hammer one limit while another's window runs out), then throws `too_many_requests` with
   * the longest wait of the rules it broke.
   */
  async consume(rules: readonly RateLimitRule[]): Promise<void> {
    const results = await Promise.allSettled(
      rules.map((rule) => this.store.hit(storageKey(rule.name, rule.key), rule.windowMs)),
    );
    const now = Date.now();
    const broken: string[] = [];
    let waitMs = 0;
    results.forEach((result, index) => {
      const rule = rules[index];
      if (!rule) return;
      if (result.status === 'rejected') {
        this.log.error({ err: result.reason, rule: rule.name }, 'rate limit store failed; allowed');
        return;
      }
      if (result.value.count <= this.limitOf(rule)) return;
      broken.push(rule.name);
      waitMs = Math.max(waitMs, result.value.resetAt - now);
    });
    this.refuse(broken, waitMs);
  }

  /**
   * Counts a hit against one rule and says whether it is still within the limit, refusing
   * nothing: for work that is skipped over a limit rather than refused (a search that found
   * nothing is counted for staff only the first time an address makes it in a while). Fails
   * open like `consume`.
   */
  async within(rule: RateLimitRule): Promise<boolean> {
    try {
      const hit = await this.store.hit(storageKey(rule.name, rule.key), rule.windowMs);
      return hit.count <= this.limitOf(rule);
    } catch (error) {
      this.log.error({ err: error, rule: rule.name }, 'rate limit store failed; allowed');
      return true;
    }
  }

  /**
   * Limits failures only: an account's correct passwords and codes never count against it,
   * so a guesser cannot lock its owner out faster than the owner can sign in.
   *
   * Runs `attempt` (the credential check) holding one slot of every rule, taken before the
   * check by an atomic increment-then-compare in the store. A check made first and a failure
   * counted after would let parallel requests all pass the check before any failure was
   * counted; with slots, at most `limit` attempts are ever being checked or counted at once,
   * however many arrive together. An attempt over a limit gives its slots back and is
   * refused with 429 unchecked. When `attempt` throws an error that `isFailure` accepts, its
   * slots stay as the failure's count; a success, or any other error (a bug, a blocked
   * account, the database), gives them back.
   */
  async limitFailures<T>(
    rules: readonly RateLimitRule[],
    attempt: () => Promise<T>,
    isFailure: (error: unknown) => boolean,
  ): Promise<T> {
    const held = await this.reserve(rules);
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      if (!isFailure(error)) await this.release(held);
      throw error;
    }
    await this.release(held);
    return result;
  }

  /** Takes a slot of every rule, or gives them all back and refuses (see limitFailures). */
  private async reserve(rules: readonly RateLimitRule[]): Promise<string[]> {
    const results = await Promise.allSettled(
      rules.map((rule) => this.store.hit(storageKey(rule.name, rule.key), rule.windowMs)),
    );
    const now = Date.now();
    const held: string[] = [];
    const broken: string[] = [];
    let waitMs = 0;
    results.forEach((result, index) => {
      const rule = rules[index];
      if (!rule) return;
      if (result.status === 'rejected') {
        this.log.error({ err: result.reason, rule: rule.name }, 'rate limit store failed; allowed');
        return;
      }
      held.push(storageKey(rule.name, rule.key));
      if (result.value.count <= this.limitOf(rule)) return;
      broken.push(rule.name);
      waitMs = Math.max(waitMs, result.value.resetAt - now);
    });
    if (broken.length > 0) await this.release(held);
    this.refuse(broken, waitMs);
    return held;
  }

  private async release(keys: readonly string[]): Promise<void> {
    const results = await Promise.allSettled(keys.map((key) => this.store.undo(key)));
    for (const result of results) {
      if (result.status === 'rejected') {
        // The slot then counts as a failure until its window ends: a stricter limit, briefly.
        this.log.error({ err: result.reason }, 'rate limit release failed');
      }
    }
  }

  private refuse(broken: readonly string[], waitMs: number): void {
    if (broken.length === 0) return;
    // Only the names: the keys are addresses and e-mails, which do not belong in logs.
    this.log.warn({ rules: broken }, 'rate limit exceeded');
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    throw new AppError('too_many_requests', { headers: { 'retry-after': String(retryAfter) } });
  }

  /** Clears one counter, e.g. the account's failed sign-ins after it signs in. */
  async reset(name: string, key: string): Promise<void> {
    try {
      await this.store.reset(storageKey(name, key));
    } catch (error) {
      // A counter left standing only ends its window on its own; not worth failing a sign-in.
      this.log.error({ err: error, rule: name }, 'rate limit reset failed');
    }
  }
}

/** `isFailure` of limitFailures: the attempt failed when it threw an AppError of `code`. */
export function failsWith(code: ErrorCode): (error: unknown) => boolean {
  return (error) => error instanceof AppError && error.code === code;
}

/**
 * The store's key of a rule: its name and the SHA-256 of the normalised key, so e-mail
 * addresses are never written to Redis in clear and every key has the same short length.
 */
export function storageKey(name: string, key: string): string {
  const digest = createHash('sha256').update(normaliseKey(key)).digest('base64url');
  return `${name}:${digest}`;
}

/**
 * One spelling per client or account: e-mails are compared case-insensitively, and an IPv6
 * client counts by its /64 prefix, because a single subscriber is routinely given a whole
 * /64 and could otherwise take a fresh address for every attempt. An IPv4 client that
 * reaches a dual-stack socket as `::ffff:a.b.c.d` counts as a.b.c.d.
 */
export function normaliseKey(key: string): string {
  const value = key.trim().toLowerCase();
  const address = value.split('%')[0] ?? value;
  return isIPv6(address) ? ipv6Subnet(address) : value;
}

function ipv6Subnet(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped?.[1]) return mapped[1];
  const [headText = '', tailText] = address.split('::');
  const groupsOf = (text: string | undefined) => (text ? text.split(':') : []);
  const head = groupsOf(headText);
  const tail = groupsOf(tailText);
  // A dotted IPv4 tail stands for the last two groups.
  const written = [...head, ...tail].reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0);
  const groups =
    tailText === undefined ? head : [...head, ...Array(8 - written).fill('0'), ...tail];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
