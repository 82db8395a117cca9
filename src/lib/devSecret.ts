import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The development secrets: what each signs or seals, and the suffix of its file. */
export type DevelopmentSecretName = 'jwt-secret' | 'secrets-key';

/**
 * A secret of a development instance started without it being configured (JWT_SECRET,
 * SECRETS_KEY; docs/auth.md, docs/mcp-sources.md): random, made once per data directory
 * and kept beside it (mode 0600), so that sessions and stored MCP credentials survive a
 * restart but no two installations share a secret and none is published in the source. In
 * memory (`memory://`) it lives as long as the process, like the data. Production refuses
 * to start without both (src/config.ts).
 */
export function developmentSecret(name: DevelopmentSecretName, opts: { pgliteDataDir: string; databaseUrl?: string }): { secret: string; file: string | null } {
  if (!opts.databaseUrl && opts.pgliteDataDir === 'memory://') return { secret: randomBytes(48).toString('base64url'), file: null };
  const dir = opts.databaseUrl ? path.resolve('.data') : path.resolve(opts.pgliteDataDir);
  const file = opts.databaseUrl ? path.join(dir, `dev-${name}`) : path.join(path.dirname(dir), `.${path.basename(dir)}.${name}`);
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return { secret, file };
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { secret, file };
}

/** The token-signing secret when JWT_SECRET is unset (see developmentSecret). */
export function developmentJwtSecret(opts: { pgliteDataDir: string; databaseUrl?: string }): { secret: string; file: string | null } {
  return developmentSecret('jwt-secret', opts);
}
