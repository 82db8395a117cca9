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
      const p: Promise<void> = new Promise<void>((r) => setImmediate(r))
        .then(task)
        .then(() => {})
        .catch((err: unknown) => log?.error({ err }, `${what} after the response failed`))
        .finally(() => pending.delete(p));
      pending.add(p);
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
  /** Resolves when no row is waiting or being written, including rows added meanwhile (closing the app, tests). */
  settled(): Promise<void>;
}

/**
 * Rows that a response does not wait for, written in batches: one statement (one commit) for
 * the rows of up to `delayMs`, or of `maxRows`, whichever comes first, instead of one per
 * response. Under load that is a few statements a second however many requests there are,
 * and none of them runs beside every next request. A batch that fails is written again row
 * by row, so that one row the database refuses (its workspace deleted meanwhile) loses only
 * itself; a row that still fails is logged, never thrown at anyone. The timer does not keep
 * the process alive: closing the app waits for `settled()`.
 */
export function batchedAfterResponse<T>(opts: {
  what: string;
  write(rows: T[]): Promise<unknown>;
  maxRows: number;
  delayMs: number;
  log?: { error(obj: unknown, msg?: string): void };
}): BatchedAfterResponse<T> {
  let queued: T[] = [];
  let timer: NodeJS.Timeout | null = null;
  const writes = afterResponse(opts.what, opts.log);

  async function writeBatch(rows: T[]) {
    try {
      await opts.write(rows);
    } catch (err) {
      if (rows.length === 1) throw err;
      for (const row of rows) {
        await opts.write([row]).catch((e: unknown) => opts.log?.error({ err: e }, `${opts.what} after the response failed`));
      }
    }
  }

  function start() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!queued.length) return;
    const rows = queued;
    queued = [];
    writes.run(() => writeBatch(rows));
  }

  return {
    add(row) {
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
      do {
        start();
        await writes.settled();
      } while (queued.length);
    },
  };
}
