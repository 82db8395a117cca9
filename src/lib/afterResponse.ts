import { idempotencyStore } from './idempotencyContext.js';

/**
 * Work that a response does not wait for (an e-mail, a log row), kept track of so that
 * whoever needs it done can wait: a read of what it writes, a test, closing the app.
 * A task starts on the next turn of the event loop, once the response is on its way; one
 * that fails is logged, never thrown at anyone.
 */
export interface AfterResponse {
  run(task: () => Promise<unknown>): void;
  /** Resolves when the tasks started so far have ended (a read of what they write waits for this). */
  flush(): Promise<void>;
  /** Resolves when no task is left, including those started meanwhile (closing the app, tests). */
  settled(): Promise<void>;
}

export function afterResponse(what: string, log?: { error(obj: unknown, msg?: string): void }): AfterResponse {
  const pending = new Set<Promise<void>>();
  return {
    run(task) {
      // Outside the request's Idempotency-Key claim: work after the response is not its effect.
      idempotencyStore.exit(() => {
        const p: Promise<void> = new Promise<void>((r) => setImmediate(r))
          .then(task)
          .then(() => {})
          .catch((err: unknown) => log?.error({ err }, `${what} after the response failed`))
          .finally(() => pending.delete(p));
        pending.add(p);
      });
    },
    async flush() {
      if (pending.size) await Promise.allSettled([...pending]);
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}

/** Rows written after the response, together (see `batchedAfterResponse`). */
export interface BatchedAfterResponse<T> {
  /** Queues one row; it is written within `delayMs`, or at once when `maxRows` are waiting. */
  add(row: T): void;
  /** Writes the rows queued so far now and resolves when they (and writes in flight) have ended. */
  flush(): Promise<void>;
  /**
   * Resolves when no row is waiting or being written, including rows added meanwhile (closing
   * the app, tests). Rows held for an unreachable database are tried until `closeTimeoutMs`,
   * then counted as dropped.
   */
  settled(): Promise<void>;
  /** Rows waiting (queued or held for the database), written, and dropped since the start. */
  stats(): BatchStats;
}

export interface BatchStats {
  /** Rows not yet written (queued, being written, or held until the database answers again). */
  pending: number;
  written: number;
  /** Rows given up: the holding space was full, the database refused the row itself, or the process closed with the database away. */
  dropped: number;
  /** Batches tried again after the database could not be reached. */
  retries: number;
}

/**
 * Rows that a response does not wait for, written in batches: one statement (one commit) for
 * the rows of up to `delayMs`, or of `maxRows`, whichever comes first, instead of one per
 * response. Under load that is a few statements a second however many requests there are,
 * and none of them runs beside every next request. A batch that fails because the database
 * cannot be reached (`isTransient`) is held and tried again after a growing pause (0.2-5 s)
 * until it is written, at most `maxHeld` rows (beyond that the newest are dropped and
 * counted): a connection cut loses no row. A batch the database refuses is written again row
 * by row, so that one row the database refuses (its workspace deleted meanwhile) loses only
 * itself; a row that still fails is logged, never thrown at anyone. The timer does not keep
 * the process alive: closing the app waits for `settled()`.
 */
export function batchedAfterResponse<T>(opts: {
  what: string;
  write(rows: T[]): Promise<unknown>;
  maxRows: number;
  delayMs: number;
  log?: { error(obj: unknown, msg?: string): void; warn?(obj: unknown, msg?: string): void };
  /** Errors after which the rows are held and tried again (the database unreachable). */
  isTransient?: (err: unknown) => boolean;
  /** Rows held at most while the database is away (default 10,000). */
  maxHeld?: number;
  /** How long closing waits for held rows (default 5 s). */
  closeTimeoutMs?: number;
}): BatchedAfterResponse<T> {
  const isTransient = opts.isTransient ?? (() => false);
  const maxHeld = opts.maxHeld ?? 10_000;
  let queued: T[] = [];
  /** Rows of batches that met an unreachable database, oldest first. */
  let held: T[] = [];
  let inFlight = 0;
  let timer: NodeJS.Timeout | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let backoffMs = 0;
  let outage = false;
  const stats = { written: 0, dropped: 0, retries: 0 };
  const writes = afterResponse(opts.what, opts.log);

  function hold(rows: T[], err: unknown) {
    const room = Math.max(0, maxHeld - held.length - queued.length);
    if (rows.length > room) {
      stats.dropped += rows.length - room;
      opts.log?.error({ dropped: rows.length - room }, `${opts.what}: rows dropped, the holding space (${maxHeld}) is full`);
    }
    held = rows.slice(0, room).concat(held);
    if (!outage) {
      const message = `${opts.what}: the database cannot be reached; rows held and tried again`;
      if (opts.log?.warn) opts.log.warn({ err }, message);
      else opts.log?.error({ err }, message);
    }
    outage = true;
    backoffMs = Math.min(5000, backoffMs ? backoffMs * 2 : 200);
    if (!retryTimer) {
      retryTimer = setTimeout(retry, backoffMs);
      retryTimer.unref();
    }
  }

  function retry() {
    retryTimer = null;
    if (!held.length) return;
    const rows = held.splice(0, opts.maxRows);
    stats.retries += 1;
    inFlight += rows.length;
    writes.run(() => writeBatch(rows));
  }

  async function writeBatch(rows: T[]) {
    try {
      await opts.write(rows);
      stats.written += rows.length;
      if (outage) {
        outage = false;
        backoffMs = 0;
      }
      // Back: the held rows follow, a batch at a time.
      if (held.length && !retryTimer) {
        retryTimer = setTimeout(retry, 0);
        retryTimer.unref();
      }
    } catch (err) {
      if (isTransient(err)) return hold(rows, err);
      if (rows.length === 1) {
        stats.dropped += 1;
        throw err;
      }
      for (let i = 0; i < rows.length; i++) {
        try {
          await opts.write([rows[i]]);
          stats.written += 1;
        } catch (e) {
          if (isTransient(e)) return hold(rows.slice(i), e);
          stats.dropped += 1;
          opts.log?.error({ err: e }, `${opts.what} after the response failed`);
        }
      }
    } finally {
      inFlight -= rows.length;
    }
  }

  function start() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!queued.length) return;
    const rows = queued;
    queued = [];
    inFlight += rows.length;
    writes.run(() => writeBatch(rows));
  }

  return {
    add(row) {
      if (queued.length + held.length >= maxHeld) {
        stats.dropped += 1;
        return;
      }
      queued.push(row);
      if (queued.length >= opts.maxRows) start();
      else if (!timer) {
        timer = setTimeout(start, opts.delayMs);
        timer.unref();
      }
    },
    async flush() {
      start();
      await writes.flush();
    },
    async settled() {
      const deadline = Date.now() + (opts.closeTimeoutMs ?? 5000);
      do {
        start();
        await writes.settled();
        if (held.length) {
          if (Date.now() >= deadline) {
            stats.dropped += held.length;
            opts.log?.error({ dropped: held.length }, `${opts.what}: rows dropped, the database was still away when closing`);
            held = [];
            break;
          }
          if (retryTimer) clearTimeout(retryTimer);
          retryTimer = null;
          await new Promise((r) => setTimeout(r, Math.min(backoffMs || 200, Math.max(0, deadline - Date.now()))));
          retry();
        }
      } while (queued.length || held.length || inFlight);
    },
    stats: () => ({ pending: queued.length + held.length + inFlight, ...stats }),
  };
}
