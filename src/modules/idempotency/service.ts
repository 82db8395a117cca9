import { isDatabaseUnavailable } from '../../db/errors.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { IdempotencyRepository, IdempotencyRow } from './repository.js';
import { type Begin, canonical, checkKey, requestHash, type StoredResponse } from '../../lib/idempotencyContext.js';

/** How long a response is kept for replay. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** How long a running request holds its claim; a claim past it belongs to a request that died with its process. */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000;
/** How long the bookkeeping around an effect retries across a lost connection before it gives up. */
export const IDEMPOTENCY_RETRY_MS = 10_000;

export { type Begin, canonical, checkKey, requestHash, type StoredResponse };

const reused = () =>
  new AppError(
    422,
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used for another request (a different method, path, workspace or body); use a new key for a new request',
  );
const inFlight = () => new AppError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry after it finishes');
const lost = () =>
  new AppError(
    409,
    'IDEMPOTENCY_RESPONSE_LOST',
    'The request with this Idempotency-Key was carried out, but its response could not be kept; do not repeat it with a new key: look its result up instead',
  );

/** Retries `fn` while the database is unreachable, up to `ms`; other errors are thrown at once. */
export async function retryingWhileUnavailable<T>(fn: () => Promise<T>, ms = IDEMPOTENCY_RETRY_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    try {
      return await fn();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + wait > deadline) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** `Idempotency-Key`: claim, replay, refuse (docs/api-conventions.md, "Retries"). */
export function idempotencyService(repo: IdempotencyRepository) {
  const stored = (row: IdempotencyRow): StoredResponse => ({
    statusCode: row.statusCode ?? 200,
    contentType: row.contentType ?? 'application/json; charset=utf-8',
    body: row.responseBody ?? '',
  });
  let lastPurge = 0;

  /**
   * Does a piece of claim bookkeeping once the database is back, when it stayed unreachable for longer than the request
   * could wait: a claim nobody holds would otherwise answer 409 to every retry until its lease runs out (5 minutes).
   * Tries on unreferenced timers (a closing process does not wait for it) for half a lease: the claim's own lease, taken
   * when the request began, outlasts that window, so no retry can have taken the claim over meanwhile.
   */
  function later(work: () => Promise<unknown>) {
    const deadline = Date.now() + IDEMPOTENCY_LEASE_MS / 2;
    const attempt = (wait: number) => {
      const timer = setTimeout(() => {
        work().catch((err: unknown) => {
          if (isDatabaseUnavailable(err) && Date.now() + wait < deadline) attempt(Math.min(wait * 2, 5000));
        });
      }, wait);
      timer.unref();
    };
    attempt(200);
  }
  /** Gives a failed request's claim up later (unless its effect committed with a response meanwhile). */
  const releaseLater = (claimId: string) =>
    later(async () => {
      const row = await repo.byId(claimId);
      if (row && row.state !== 'completed') await repo.release(claimId);
    });

  /**
   * Inserts a claim. When the connection is lost on the way, whether the row went in is
   * unknown: it is deleted after the reconnection (by its own id), so that a claim nobody
   * holds does not answer 409 to every retry until its lease runs out.
   */
  async function claimOrForget(id: string, values: Omit<Parameters<IdempotencyRepository['claim']>[0], 'id'>) {
    try {
      return await repo.claim({ id, ...values });
    } catch (err) {
      if (isDatabaseUnavailable(err)) await retryingWhileUnavailable(() => repo.deleteRow(id)).catch(() => later(() => repo.deleteRow(id)));
      throw err;
    }
  }

  return {
    async begin(input: { owner: string; key: string; hash: string; method: string; path: string }): Promise<Begin> {
      const now = Date.now();
      for (let attempt = 0; attempt < 3; attempt++) {
        const id = newId();
        const claimed = await claimOrForget(id, {
          owner: input.owner,
          key: input.key,
          requestHash: input.hash,
          method: input.method,
          path: input.path,
          leaseUntil: new Date(now + IDEMPOTENCY_LEASE_MS),
          expiresAt: new Date(now + IDEMPOTENCY_TTL_MS),
        });
        if (claimed) return { kind: 'proceed', claimId: claimed.id };
        const row = await repo.find(input.owner, input.key);
        if (!row) continue; // released meanwhile
        if (row.expiresAt.getTime() <= now) {
          await repo.deleteRow(row.id);
          continue;
        }
        if (row.requestHash !== input.hash) return { kind: 'refused', error: reused() };
        if (row.state === 'completed') return { kind: 'replay', response: stored(row) };
        if (row.leaseUntil.getTime() > now) return { kind: 'refused', error: inFlight(), retryAfter: 1 };
        if (row.committedAt) return { kind: 'refused', error: lost() };
        if (await repo.takeOver(row.id, new Date(now + IDEMPOTENCY_LEASE_MS))) return { kind: 'proceed', claimId: row.id };
        return { kind: 'refused', error: inFlight(), retryAfter: 1 };
      }
      return { kind: 'refused', error: inFlight(), retryAfter: 1 };
    },

    /** The request succeeded: keep its response (unless its transaction already did). */
    async complete(claimId: string, response: StoredResponse): Promise<void> {
      await retryingWhileUnavailable(() => repo.complete(claimId, response));
    },

    /**
     * The request failed. When its effect committed together with a preset response (a
     * lost commit acknowledgement), that response is returned to be sent instead of the
     * error; otherwise the claim is given up (a retry runs the request anew, or learns that
     * its response was lost when the effect committed without one).
     */
    async fail(claimId: string): Promise<StoredResponse | null> {
      try {
        const row = await retryingWhileUnavailable(() => repo.byId(claimId));
        if (row?.state === 'completed') return stored(row);
        await retryingWhileUnavailable(() => repo.release(claimId));
        return null;
      } catch (err) {
        if (isDatabaseUnavailable(err)) releaseLater(claimId);
        throw err;
      }
    },

    /** Whether the claim's effect committed together with a preset response (retried across a reconnection). */
    async committedWithResponse(claimId: string): Promise<boolean> {
      const row = await retryingWhileUnavailable(() => repo.byId(claimId));
      return row?.state === 'completed' && row.committedAt !== null;
    },

    /** Removes expired records, at most once a minute per process (called after claims). */
    async purge(): Promise<void> {
      if (Date.now() - lastPurge < 60_000) return;
      lastPurge = Date.now();
      await repo.purgeExpired();
    },
  };
}
export type IdempotencyService = ReturnType<typeof idempotencyService>;
