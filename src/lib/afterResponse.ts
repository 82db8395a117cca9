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
