import PgBoss from 'pg-boss';
import type { Database } from '../db/client.js';
import { pgliteBossAdapter } from './pgliteAdapter.js';
import type { Log } from '../domain/log.js';

export interface JobContext {
  id: string;
  /** Attempts made before this one (0 on the first run). */
  retryCount: number;
  retryLimit: number;
  /** Aborted when the queue stops: long handlers should give up between stages. */
  signal: AbortSignal;
}

export type JobHandler<T> = (data: T, ctx: JobContext) => Promise<void>;

export interface QueueOptions {
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
}

interface Definition {
  name: string;
  handler: JobHandler<never>;
  options: QueueOptions;
}

export interface JobQueueDeps {
  database: Database;
  /** Concurrent workers per queue in this process; 0 = API-only instance (jobs are queued, not run). */
  workers: number;
  pollIntervalSec: number;
  log?: Log;
}

/**
 * Background jobs with pg-boss, in the service's own database: on PostgreSQL pg-boss
 * opens its own small pool from the connection string; on PGlite it runs over the
 * embedded connection through an adapter. Modules `define` their queues and handlers;
 * `start` installs pg-boss's schema (first run), creates the queues and, unless
 * `workers` is 0, starts that many workers per queue. `stop` lets running jobs finish
 * (up to 10 s) and releases everything, so an app can be built and closed many times.
 */
export function createJobQueue(deps: JobQueueDeps) {
  const { database } = deps;
  const definitions = new Map<string, Definition>();
  const adapter = database.kind === 'pglite' && database.pglite ? pgliteBossAdapter(database.pglite) : null;
  let boss: PgBoss | null = null;
  let starting: Promise<void> | null = null;
  const workerIds = new Map<string, string[]>();
  const abort = new AbortController();

  const makeBoss = () => {
    const common = { schema: 'pgboss', supervise: true, schedule: false, migrate: true } as const;
    const b = adapter
      ? new PgBoss({ ...common, db: adapter } as PgBoss.ConstructorOptions)
      : new PgBoss({ ...common, connectionString: database.url!, max: 3, application_name: 'dora-jobs' });
    b.on('error', (err: Error) => {
      if (abort.signal.aborted) return; // errors of polls cut short by stop()
      deps.log?.error({ err }, 'job queue error');
    });
    return b;
  };

  async function doStart() {
    const b = makeBoss();
    await b.start();
    boss = b;
    for (const def of definitions.values()) {
      await b.createQueue(def.name, {
        name: def.name,
        policy: 'standard',
        retryLimit: 2,
        retryDelay: 5,
        retryBackoff: true,
        expireInSeconds: 15 * 60,
        ...def.options,
      });
    }
    if (deps.workers > 0) {
      for (const def of definitions.values()) {
        const ids: string[] = [];
        for (let i = 0; i < deps.workers; i++) {
          ids.push(
            await b.work<unknown>(def.name, { pollingIntervalSeconds: deps.pollIntervalSec, batchSize: 1, includeMetadata: true }, async (jobs) => {
              for (const job of jobs) {
                await (def.handler as JobHandler<unknown>)(job.data, {
                  id: job.id,
                  retryCount: job.retryCount,
                  retryLimit: job.retryLimit,
                  signal: abort.signal,
                });
              }
            }),
          );
        }
        workerIds.set(def.name, ids);
      }
    }
  }

  return {
    /** Registers a queue and its handler; call before `start`. */
    define<T>(name: string, handler: JobHandler<T>, options: QueueOptions = {}) {
      if (boss) throw new Error(`queue ${name} defined after the job queue started`);
      definitions.set(name, { name, handler: handler as JobHandler<never>, options });
    },
    get started() {
      return boss !== null;
    },
    get workers() {
      return deps.workers;
    },
    async start() {
      starting ??= doStart();
      await starting;
    },
    /** Queues a job; a local worker of that queue is woken at once. Returns the job id. */
    async send<T extends object>(name: string, data: T, options: PgBoss.SendOptions = {}): Promise<string> {
      if (!boss) throw new Error('job queue not started');
      const id = await boss.send(name, data, options);
      if (!id) throw new Error(`job not queued on ${name}`);
      for (const w of workerIds.get(name) ?? []) boss.notifyWorker(w);
      return id;
    },
    async getJob(name: string, id: string) {
      if (!boss) return null;
      return boss.getJobById(name, id);
    },
    /**
     * Stops taking jobs. Running jobs get `graceMs` to finish (a draining shutdown); then
     * their abort signal fires, they give up at their next step and pg-boss retries them
     * later. 0 (tests) aborts at once.
     */
    async stop(graceMs = 0) {
      if (starting) await starting.catch(() => {});
      const b = boss;
      boss = null;
      const giveUp = setTimeout(() => abort.abort(), graceMs);
      if (b) await b.stop({ graceful: true, wait: true, timeout: graceMs + 10_000, close: true });
      clearTimeout(giveUp);
      abort.abort();
      await adapter?.close();
    },
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;
