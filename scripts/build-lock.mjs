// One build at a time (the dashboard's and the service's): a lock directory beside what is
// built, taken with mkdir (atomic); a lock older than the timeout is left over from a killed
// build and is taken over. Synchronous, so that the synchronous dashboard build can use it.
import { mkdirSync, rmSync, statSync } from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Takes the lock, waiting for another build at most `timeoutMs`; throws `timed out waiting for <what>`. */
export function acquireBuildLock(lock, what, timeoutMs = 300_000) {
  const start = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > timeoutMs) rmSync(lock, { recursive: true, force: true });
      } catch {
        // removed meanwhile
      }
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      Atomics.wait(pause, 0, 0, 250);
    }
  }
}

export function releaseBuildLock(lock) {
  rmSync(lock, { recursive: true, force: true });
}
