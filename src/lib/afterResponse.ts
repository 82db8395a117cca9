/**
 * Work that a response does not wait for (an e-mail, a log row), kept track of so that
 * whoever needs it done can wait: a read of what it writes, a test, closing the app.
 * A task that fails is logged, never thrown at anyone.
 */
export interface AfterResponse {
  /** Starts `task` (on the next turn of the event loop with `deferred`, so the response goes first). */
  run(task: () => Promise<unknown>, opts?: { deferred?: boolean }): void;
  /** Resolves when the tasks started so far have ended (a read of what they write waits for this). */
  flush(): Promise<void>;
  /** Resolves when no task is left, including those started meanwhile (closing the app, tests). */
  settled(): Promise<void>;
  /** Tasks still running. */
  readonly size: number;
}

export function afterResponse(what: string, log?: { error(obj: unknown, msg?: string): void }): AfterResponse {
  const pending = new Set<Promise<void>>();
  return {
    run(task, opts = {}) {
      const start = opts.deferred ? new Promise<void>((r) => setImmediate(r)).then(task) : Promise.resolve().then(task);
      const p: Promise<void> = start
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
    get size() {
      return pending.size;
    },
  };
}
