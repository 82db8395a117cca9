import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption of secrets at rest (MCP headers and environment variables, see
 * docs/mcp-sources.md): AES-256-GCM with a key derived (HKDF-SHA256) from the
 * configured SECRETS_KEY. A stored value is
 *
 *   v1.<keyId>.<iv>.<tag>.<ciphertext>     (base64url parts)
 *
 * where `keyId` names the key that sealed it, so that a value sealed with a previous
 * key (SECRETS_KEY_PREVIOUS, during a rotation) still opens and a value sealed with an
 * unknown key fails with a clear error. `aad` (additional authenticated data) binds a
 * value to its record: a ciphertext copied into another row does not open there.
 */
export interface SecretBox {
  seal(plaintext: string, aad: string): string;
  open(sealed: string, aad: string): string;
  /** Whether `sealed` was sealed with the current key (else re-seal it). */
  isCurrent(sealed: string): boolean;
}

export class SecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsError';
  }
}

const VERSION = 'v1';
const INFO = 'dora-vendor-service secrets v1';

interface Key {
  id: string;
  key: Buffer;
}

function deriveKey(secret: string): Key {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), INFO, 32));
  const id = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  return { id, key };
}

export function createSecretBox(currentSecret: string, previousSecrets: string[] = []): SecretBox {
  const current = deriveKey(currentSecret);
  const keys = new Map<string, Buffer>([[current.id, current.key]]);
  for (const s of previousSecrets) {
    const k = deriveKey(s);
    if (!keys.has(k.id)) keys.set(k.id, k.key);
  }
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, current.id, iv.toString('base64url'), tag.toString('base64url'), ct.toString('base64url')].join('.');
    },
    open(sealed, aad) {
      const parts = sealed.split('.');
      if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretsError('Stored secret has an unknown format');
      const [, keyId, iv, tag, ct] = parts as [string, string, string, string, string];
      const key = keys.get(keyId);
      if (!key) throw new SecretsError('Stored secret was sealed with a key that is not configured (SECRETS_KEY / SECRETS_KEY_PREVIOUS)');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretsError('Stored secret could not be decrypted (wrong key or tampered value)');
      }
    },
    isCurrent(sealed) {
      return sealed.split('.')[1] === current.id;
    },
  };
}
