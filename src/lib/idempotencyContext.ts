import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from './errors.js';
import { sha256 } from './ids.js';

/** A response decided before the effect's transaction commits: stored with the effect (docs/api-conventions.md, "Retries"). */
export interface PresetResponse {
  statusCode: number;
  contentType: string;
  body: string;
}

/**
 * The `Idempotency-Key` claim of the running request, seen by every transaction the
 * request opens (src/db/client.ts): the first one to commit marks the claim in the same
 * transaction, with the response when the service preset it.
 */
export interface IdempotencyClaim {
  id: string;
  response?: PresetResponse;
  /** Whether the claim's effect committed with its preset response (asked after a lost connection; waits for the reconnection). */
  committedWithResponse?: () => Promise<boolean>;
}

export const idempotencyStore = new AsyncLocalStorage<IdempotencyClaim>();

/**
 * For a service whose response is known before its one writing transaction (an answer to a
 * question): the response is stored in that transaction, so it exists exactly when the
 * effect does and a retry after a lost commit acknowledgement is replayed. No-op outside a
 * request with an `Idempotency-Key`.
 */
export function presetIdempotentResponse(statusCode: number, body: unknown): void {
  const claim = idempotencyStore.getStore();
  if (claim) claim.response = { statusCode, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

/**
 * After the effect's transaction failed because the connection was lost: whether it
 * committed all the same (its acknowledgement was what got lost), known only for a request
 * with an `Idempotency-Key` whose response was preset. False otherwise.
 */
export async function idempotentEffectCommitted(): Promise<boolean> {
  const claim = idempotencyStore.getStore();
  if (!claim?.response || !claim.committedWithResponse) return false;
  return claim.committedWithResponse().catch(() => false);
}

/**
 * Runs `fn` outside the request's claim: for a transaction that only reads (retrieval under
 * its settings), which must not mark the request's effect as committed.
 */
export function outsideIdempotency<T>(fn: () => T): T {
  return idempotencyStore.exit(fn);
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  statusCode: number;
  contentType: string;
  body: string;
}

/** What `begin` decides for a request with an Idempotency-Key. */
export type Begin =
  | { kind: 'proceed'; claimId: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'refused'; error: AppError; retryAfter?: number };

/** Canonical JSON (sorted keys): the same document sent with its keys in another order is the same request. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(parts: { method: string; route: string; params: unknown; workspace: unknown; body: unknown }): string {
  return sha256(canonical(parts));
}

export function checkKey(key: string): void {
  if (!KEY_RE.test(key)) {
    const detail = 'Idempotency-Key: must be 1-255 printable ASCII characters';
    throw new AppError(400, 'VALIDATION_ERROR', `Validation failed: ${detail}`, [detail]);
  }
}

/** The store behind the idempotency plugin (src/modules/idempotency implements it). */
export interface IdempotencyStore {
  begin(input: { owner: string; key: string; hash: string; method: string; path: string }): Promise<Begin>;
  complete(claimId: string, response: StoredResponse): Promise<void>;
  fail(claimId: string): Promise<StoredResponse | null>;
  committedWithResponse(claimId: string): Promise<boolean>;
  purge(): Promise<void>;
}
