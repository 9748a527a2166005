import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { retryOnDeadlock } from '../../db/errors.ts';
import { boundToRequest, currentRequestId, withRequestId } from '../logging/log-context.ts';
import {
  assertQueueName,
  type Job,
  type JobHandler,
  type JobQueue,
  type SendOptions,
  type WorkOptions,
} from './job-queue.ts';
import { type QueueDb, transactionDb } from './pg-boss-db.ts';

export interface QueueTimings {
  /** How often an idle worker looks for due jobs (pg-boss: 2 s; 0.5 at least). */
  pollingIntervalSeconds?: number;
  /** How often one process checks the schedules for a tick (pg-boss: 30 s). */
  cronMonitorIntervalSeconds?: number;
  /** How soon a tick becomes its job (pg-boss: 5 s). */
  cronWorkerIntervalSeconds?: number;
  /** On close, how long running jobs may take; those still running are failed, to be retried. */
  stopTimeoutMs?: number;
}

export interface PgBossQueueOptions extends QueueTimings {
  db: QueueDb;
  log: FastifyBaseLogger;
}

/** pg-boss's tables live in this schema of the app's database. */
export const SCHEMA = 'pgboss';

/**
 * Every queue has pg-boss's `short` policy: at most one waiting job per singleton key. A job
 * sent without a key is its own key (its id), so only sends that name one are deduplicated.
 */
const QUEUE_POLICY = 'short';

const RETRY_DEFAULTS = { retryLimit: 5, retryDelay: 10, retryBackoff: true };

const DUE_JOBS = `
  SELECT count(*)::int AS count FROM ${SCHEMA}.job
  WHERE name = ANY($1::text[]) AND state < 'completed' AND start_after <= now()`;

type State = 'new' | 'started' | 'stopping' | 'stopped' | 'closed';

/** The JobQueue over pg-boss; queue-plugin.ts starts and stops it with the app. */
export class PgBossQueue implements JobQueue {
  #boss: PgBoss;
  readonly #bossOptions: PgBoss.ConstructorOptions;
  readonly #db: QueueDb;
  readonly #log: FastifyBaseLogger;
  readonly #pollingIntervalSeconds: number | undefined;
  readonly #stopTimeoutMs: number;
  #state: State = 'new';
  /** Registrations made before start, run by it. */
  readonly #pending: Array<() => Promise<void>> = [];
  readonly #queues = new Map<string, Promise<void>>();
  /** Queues whose creation this process has seen end. */
  readonly #made = new Set<string>();
  readonly #workers = new Map<string, string[]>();
  readonly #running = new Set<Promise<void>>();

  constructor(options: PgBossQueueOptions) {
    this.#db = options.db;
    this.#log = options.log;
    this.#pollingIntervalSeconds = options.pollingIntervalSeconds;
    this.#stopTimeoutMs = Math.max(options.stopTimeoutMs ?? 5_000, 1_000);
    this.#bossOptions = {
      db: options.db,
      schema: SCHEMA,
      ...RETRY_DEFAULTS,
      ...definedOnly({
        pollingIntervalSeconds: options.pollingIntervalSeconds,
        cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds,
        cronWorkerIntervalSeconds: options.cronWorkerIntervalSeconds,
      }),
    };
    this.#boss = this.#newBoss();
    let started = () => {};
    this.#started = new Promise<void>((resolve) => {
      started = resolve;
    });
    this.#markStarted = started;
  }

  #newBoss(): PgBoss {
    const boss = new PgBoss(this.#bossOptions);
    // An EventEmitter throws an 'error' nobody listens to: pg-boss reports failed polls and
    // maintenance this way, and goes on.
    boss.on('error', (error) => this.#log.error({ err: error }, 'job queue error'));
    return boss;
  }

  readonly #started: Promise<void>;
  readonly #markStarted: () => void;
  #retryTimer: NodeJS.Timeout | undefined;
  #queueMaking: Promise<unknown> = Promise.resolve();

  /** Creates or migrates the `pgboss` schema, then starts what was registered so far. */
  async start(): Promise<void> {
    if (this.#state !== 'new') return;
    try {
      await this.#boss.start();
    } catch (error) {
      // pg-boss cannot start twice after a failed start: the next try gets a fresh one.
      this.#boss = this.#newBoss();
      throw error;
    }
    this.#state = 'started';
    for (const register of this.#pending.splice(0)) await this.#register(register);
    this.#markStarted();
  }

  /** A worker or schedule that fails to start (a lost connection) is tried again, alone. */
  async #register(register: () => Promise<void>, attempt = 1): Promise<void> {
    try {
      await register();
    } catch (error) {
      if (this.#state !== 'started') return;
      this.#log.error(
        { err: error },
        'a job queue worker or schedule could not start; trying again',
      );
      const timer = setTimeout(
        () => void this.#register(register, attempt + 1),
        Math.min(1_000 * attempt, 30_000),
      );
      timer.unref();
    }
  }

  /**
   * Starts without holding up the app for long: with the database down at boot the app still
   * serves (its readiness says the database is down) and the queue keeps trying every few
   * seconds, its workers and schedules starting once the database answers. Resolves when
   * the first attempt has ended, either way, so a caller can wait for the usual case (the
   * database answers) and serve with workers registered and every send possible.
   */
  startInBackground(retryMs = 5_000): Promise<void> {
    const attempt = async () => {
      this.#retryTimer = undefined;
      if (this.#state !== 'new') return;
      await this.start().catch((error: unknown) => {
        if (this.#state !== 'new') return;
        this.#log.error({ err: error }, 'job queue could not start; trying again');
        this.#retryTimer = setTimeout(attempt, retryMs);
        this.#retryTimer.unref();
      });
    };
    return attempt();
  }

  /** Waits for the start, for calls made before it; a queue that stays down fails them. */
  async #whenReady(timeoutMs = 10_000): Promise<void> {
    if (this.#state === 'started' || this.#state === 'stopping') return;
    if (this.#state !== 'new') throw new Error('the job queue is stopped');
    const timeout = new AbortController();
    const late = sleep(timeoutMs, 'late' as const, { signal: timeout.signal }).catch(() => null);
    const outcome = await Promise.race([this.#started.then(() => 'started' as const), late]);
    timeout.abort();
    if (outcome !== 'started')
      throw new Error('the job queue has not started (is the database up?)');
  }

  /**
   * Takes no more jobs and waits (up to the stop timeout) for the running ones; sends still
   * work until `close`, for requests that finish meanwhile.
   */
  async stop(): Promise<void> {
    clearTimeout(this.#retryTimer);
    if (this.#state !== 'started') {
      if (this.#state === 'new') this.#state = 'stopped';
      return;
    }
    this.#state = 'stopping';
    const deadline = Date.now() + this.#stopTimeoutMs;
    await this.#boss.stop({
      graceful: true,
      wait: true,
      close: false,
      timeout: this.#stopTimeoutMs,
    });
    // A worker whose poll was under way when pg-boss stopped may still start that job.
    await this.#settle(() => this.#running, deadline, 'jobs still running after the stop timeout');
    this.#state = 'stopped';
  }

  /** After stop: lets pg-boss's queries under way finish, then answers no more. */
  async close(): Promise<void> {
    await this.stop();
    this.#state = 'closed';
    this.#db.close();
    await this.#settle(
      () => this.#db.inFlight(),
      Date.now() + 2_000,
      'queue queries still under way',
    );
  }

  async send(name: string, data: object, options: SendOptions = {}): Promise<string | null> {
    assertQueueName(name);
    if (this.#state === 'closed') throw new Error('the job queue is closed');
    if (!options.transaction) await this.#whenReady();
    else if (this.#state === 'new') throw new Error('the job queue has not started yet');
    const id = randomUUID();
    const payload = withSenderId(data);
    const sendOptions: PgBoss.SendOptions = {
      id,
      singletonKey: options.singletonKey ?? id,
      ...definedOnly({
        startAfter: options.startAfter,
        retryLimit: options.retryLimit,
        retryDelay: options.retryDelaySeconds,
        retryBackoff: options.retryBackoff,
      }),
    };
    if (options.transaction) {
      // A queue not known made is made inside the transaction too (it commits or goes with
      // it; on PGlite a statement outside would wait for the transaction). One still being
      // made elsewhere is not visible here yet, and the job's insert (a join on the queue)
      // would insert nothing: under the creation lock this waits for that creation to commit
      // and then finds the queue. The lock lasts until the transaction ends, so it is taken
      // only for a queue not visible yet. (One visible is not thereby known made: this
      // transaction may have made it, and may roll back.)
      const db = transactionDb(options.transaction);
      if (!this.#made.has(name)) {
        const found = await db.executeSql(QUEUE_EXISTS, [name]);
        if (found.rows.length === 0) {
          await db.executeSql(CREATE_QUEUE_LOCK, []);
          await db.executeSql(`SELECT ${SCHEMA}.create_queue($1, $2)`, [name, queueOptions()]);
        }
      }
      return this.#boss.send(name, payload, { ...sendOptions, db });
    }
    await this.#ensureQueue(name);
    const sent = await this.#boss.send(name, payload, sendOptions);
    if (sent && options.startAfter === undefined) this.#wake(name);
    return sent;
  }

  async work(name: string, handler: JobHandler, options: WorkOptions = {}): Promise<void> {
    assertQueueName(name);
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(`concurrency must be a positive integer, not ${concurrency}`);
    }
    await this.#whenStarted(async () => {
      await this.#ensureQueue(name);
      const work: PgBoss.WorkOptions & { includeMetadata: true } = {
        includeMetadata: true,
        ...definedOnly({ pollingIntervalSeconds: this.#pollingIntervalSeconds }),
      };
      for (let i = 0; i < concurrency; i += 1) {
        let workerId = '';
        workerId = await this.#boss.work(name, work, async ([job]) => {
          if (!job) return;
          try {
            await this.#run(handler, job);
          } finally {
            // pg-boss waits out its polling interval even after a job: a worker that found
            // one looks again at once, so a backlog drains at the handlers' pace.
            if (this.#state === 'started') this.#boss.notifyWorker(workerId);
          }
        });
        this.#workers.set(name, [...(this.#workers.get(name) ?? []), workerId]);
      }
    });
  }

  async schedule(name: string, cron: string, data: object = {}): Promise<void> {
    assertQueueName(name);
    await this.#whenStarted(async () => {
      await this.#ensureQueue(name);
      await this.#boss.schedule(name, cron, data, { tz: 'UTC' });
    });
  }

  async unschedule(name: string): Promise<void> {
    assertQueueName(name);
    await this.#whenStarted(() => this.#boss.unschedule(name));
  }

  async drain({ timeoutMs = 10_000 }: { timeoutMs?: number } = {}): Promise<void> {
    await this.#whenReady(timeoutMs);
    const names = [...this.#workers.keys()];
    if (names.length === 0) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const name of names) this.#wake(name);
      const result = await this.#db.executeSql(DUE_JOBS, [names]);
      const due = Number((result.rows[0] as { count: number } | undefined)?.count ?? 0);
      if (due === 0 && this.#running.size === 0) return;
      if (Date.now() > deadline) {
        throw new Error(`${due} jobs still due after ${timeoutMs} ms (${names.join(', ')})`);
      }
      await sleep(20);
    }
  }

  async #whenStarted(register: () => Promise<void>): Promise<void> {
    if (this.#state === 'new') this.#pending.push(register);
    else if (this.#state === 'started') await register();
    else throw new Error('the job queue is stopped');
  }

  #ensureQueue(name: string): Promise<void> {
    let made = this.#queues.get(name);
    if (!made) {
      // One at a time in this process, and under CREATE_QUEUE_LOCK across processes and
      // transactions: two queues made at once deadlock on pg-boss's tables.
      made = this.#queueMaking
        // A deadlock with anything else on pg-boss's tables is tried again.
        .then(() => retryOnDeadlock(() => this.#db.executeSql(createQueueScript(name), [])))
        .then(() => {
          this.#made.add(name);
        });
      this.#queueMaking = made.catch(() => undefined);
      this.#queues.set(name, made);
      made.catch(() => this.#queues.delete(name));
    }
    return made;
  }

  wake(name: string): void {
    if (this.#state === 'started') this.#wake(name);
  }

  /** A worker of this process picks a job sent here at once instead of at its next poll. */
  #wake(name: string): void {
    for (const workerId of this.#workers.get(name) ?? []) this.#boss.notifyWorker(workerId);
  }

  #run(handler: JobHandler, job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    const { data, reqId } = senderIdOf(job.data);
    const given: Job = { id: job.id, name: job.name, data, retryCount: job.retryCount };
    // A job a request sent runs for that request: its lines, and those of all it calls (the
    // mailer's), name the request's id (server/platform/logging/log-context.ts).
    const log = reqId ? boundToRequest(this.#log, reqId) : this.#log;
    const details = { job: job.name, jobId: job.id, retryCount: job.retryCount };
    const started = performance.now();
    const work = () => Promise.resolve().then(() => handler(given));
    const run = (reqId ? withRequestId(reqId, work) : work())
      .then(() => {
        const durationMs = Math.round((performance.now() - started) * 10) / 10;
        log.info({ ...details, durationMs }, 'job done');
      })
      .catch((error: unknown) => {
        const last = job.retryCount >= job.retryLimit;
        log.warn(
          { err: error, ...details },
          last ? 'job failed for the last time' : 'job failed; it will be retried',
        );
        throw error;
      });
    this.#running.add(run);
    const forget = () => this.#running.delete(run);
    run.then(forget, forget);
    return run;
  }

  /** Waits for what `pending` lists (which may grow meanwhile) until `deadline`. */
  async #settle(pending: () => Iterable<Promise<unknown>>, deadline: number, late: string) {
    for (;;) {
      // A poll that just answered starts its job within this turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      const left = [...pending()];
      if (left.length === 0) return;
      const wait = deadline - Date.now();
      if (wait <= 0) {
        this.#log.warn({ count: left.length }, late);
        return;
      }
      const timeout = new AbortController();
      await Promise.race([
        Promise.allSettled(left),
        sleep(wait, undefined, { signal: timeout.signal }).catch(() => {}),
      ]);
      timeout.abort();
    }
  }
}

function queueOptions(): PgBoss.Queue {
  return { name: '', policy: QUEUE_POLICY };
}

/**
 * pg-boss's create_queue takes no lock of its own, and two at once (PostgreSQL) deadlock:
 * each inserts its queue row, then adds a foreign key to the queue table. Ours all take this
 * lock for the rest of their transaction first.
 */
const CREATE_QUEUE_LOCK = `SELECT pg_advisory_xact_lock(hashtext('${SCHEMA}.create_queue'))`;

const QUEUE_EXISTS = `SELECT 1 FROM ${SCHEMA}.queue WHERE name = $1`;

/** Its own transaction, so the lock ends with it (a script: literals, no parameters). */
function createQueueScript(name: string): string {
  assertQueueName(name); // letters, digits, `_`, `.` and `-` only: safe as a literal
  const options = JSON.stringify(queueOptions());
  return `BEGIN; ${CREATE_QUEUE_LOCK}; SELECT ${SCHEMA}.create_queue('${name}', '${options}'); COMMIT;`;
}

/**
 * Where a job's data carries the id of the request that sent it; taken out again before its
 * handler sees the data. Only a plain object has room for it.
 */
const SENDER_ID_KEY = '_reqId';

function withSenderId(data: object): object {
  const reqId = currentRequestId();
  if (!reqId || Array.isArray(data) || Object.getPrototypeOf(data) !== Object.prototype) {
    return data;
  }
  return { ...data, [SENDER_ID_KEY]: reqId };
}

function senderIdOf(data: unknown): { data: unknown; reqId: string | undefined } {
  if (typeof data !== 'object' || data === null || !(SENDER_ID_KEY in data)) {
    return { data, reqId: undefined };
  }
  const { [SENDER_ID_KEY]: reqId, ...rest } = data as Record<string, unknown>;
  return { data: rest, reqId: typeof reqId === 'string' ? reqId : undefined };
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
