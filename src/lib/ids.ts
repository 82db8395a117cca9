import { randomBytes, randomUUID, createHash } from 'node:crypto';

/** Opaque record identifier. */
export function newId(): string {
  return randomUUID();
}

/** A URL-safe random secret (tokens sent to users); store only its hash. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
