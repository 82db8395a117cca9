import type { McpTransport } from '../../db/schema/mcp.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secrets.js';
import { stdioRefusal, type McpConnectionSpec, type StdioPolicy } from '../../mcp/client.js';
import { UrlNotAllowedError, type NetworkGuard } from '../../mcp/ssrf.js';
import type { McpSourceRow } from './repository.js';

/**
 * Connection settings of an MCP source: validation (header and environment names,
 * network rules, stdio policy) and the sealed credentials. Pure functions; the
 * service passes the guard, the policy and the secret box.
 */

/** A source's credentials, sealed together in `mcp_sources.secrets`. */
export interface Secrets {
  headers: Record<string, string>;
  env: Record<string, string>;
}

/** Connection settings as validated by `checkConnection`. */
export interface ConnectionSettings {
  transport: McpTransport;
  url: string | null;
  headers: Record<string, string>;
  command: string | null;
  args: string[];
  env: Record<string, string>;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;
/** Headers the transport manages itself; a source cannot set them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-connection',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'expect',
]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Variables that change which program runs or what it loads: refused for stdio sources. */
const RESERVED_ENV =
  /^(PATH|HOME|NODE_OPTIONS|NODE_PATH|NODE_EXTRA_CA_CERTS|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|SHELL|IFS|LD_.*|DYLD_.*)$/i;
const MAX_HEADERS = 32;
const MAX_ENV = 64;
const MAX_HEADER_VALUE = 8192;
const MAX_ENV_VALUE = 32768;

export const fieldError = (field: string, problem: string) => badRequest(`${field}: ${problem}`, [`${field}: ${problem}`]);

function urlError(e: UrlNotAllowedError) {
  return new AppError(400, e.reason === 'refused' ? 'URL_NOT_ALLOWED' : 'VALIDATION_ERROR', `Validation failed: url ${e.message}`, [`url: ${e.message}`]);
}

function stdioError(reason: string) {
  return new AppError(400, 'STDIO_NOT_ALLOWED', `Validation failed: ${reason}`, [`command: ${reason}`]);
}

/** Applies a patch (`null` removes a key; `null` for the whole map clears it). */
export function mergeMap(current: Record<string, string>, patch: Record<string, string | null> | null | undefined): Record<string, string> {
  if (patch === undefined) return current;
  if (patch === null) return {};
  const out = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    // Header names are case-insensitive: a new spelling replaces the old one.
    for (const existing of Object.keys(out)) if (existing.toLowerCase() === k.toLowerCase() && existing !== k) delete out[existing];
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

function checkHeaders(headers: Record<string, string>): void {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) throw fieldError('headers', `at most ${MAX_HEADERS} headers`);
  for (const [k, v] of Object.entries(headers)) {
    if (!HEADER_NAME.test(k)) throw fieldError(`headers.${k}`, 'is not a valid header name');
    if (RESERVED_HEADERS.has(k.toLowerCase())) throw fieldError(`headers.${k}`, 'is set by the MCP transport and cannot be configured');
    if (/[\r\n\0]/.test(v)) throw fieldError(`headers.${k}`, 'must not contain line breaks');
    if (v.length > MAX_HEADER_VALUE) throw fieldError(`headers.${k}`, `must be at most ${MAX_HEADER_VALUE} characters`);
  }
}

function checkEnv(env: Record<string, string>): void {
  if (Object.keys(env).length > MAX_ENV) throw fieldError('env', `at most ${MAX_ENV} variables`);
  for (const [k, v] of Object.entries(env)) {
    if (!ENV_NAME.test(k)) throw fieldError(`env.${k}`, 'is not a valid environment variable name');
    if (RESERVED_ENV.test(k)) throw fieldError(`env.${k}`, 'cannot be set for an MCP server process');
    if (v.includes('\0')) throw fieldError(`env.${k}`, 'must not contain NUL characters');
    if (v.length > MAX_ENV_VALUE) throw fieldError(`env.${k}`, `must be at most ${MAX_ENV_VALUE} characters`);
  }
}

/** Validates connection settings (structure, network rules, stdio policy) into a spec. */
export async function checkConnection(guard: NetworkGuard, stdioPolicy: StdioPolicy, c: ConnectionSettings): Promise<McpConnectionSpec> {
  if (c.transport === 'http') {
    if (!c.url) throw fieldError('url', 'is required for transport http');
    if (c.command !== null) throw fieldError('command', 'is only allowed for transport stdio');
    if (c.args.length) throw fieldError('args', 'is only allowed for transport stdio');
    if (Object.keys(c.env).length) throw fieldError('env', 'is only allowed for transport stdio');
    checkHeaders(c.headers);
    try {
      await guard.checkUrl(c.url);
    } catch (e) {
      if (e instanceof UrlNotAllowedError) throw urlError(e);
      throw e;
    }
    return { transport: 'http', url: c.url, headers: c.headers };
  }
  if (!c.command) throw fieldError('command', 'is required for transport stdio');
  if (c.url !== null) throw fieldError('url', 'is only allowed for transport http');
  if (Object.keys(c.headers).length) throw fieldError('headers', 'is only allowed for transport http');
  if (c.command.includes('\0') || c.args.some((a) => a.includes('\0'))) throw fieldError('command', 'must not contain NUL characters');
  checkEnv(c.env);
  const refusal = stdioRefusal(stdioPolicy, c.command);
  if (refusal) throw stdioError(refusal);
  return { transport: 'stdio', command: c.command, args: c.args, env: c.env };
}

const aad = (id: string) => `mcp_source:${id}`;

/** Seals a source's credentials (bound to its id), or null when there are none. */
export function sealSecrets(box: SecretBox, id: string, s: Secrets): string | null {
  return Object.keys(s.headers).length || Object.keys(s.env).length ? box.seal(JSON.stringify(s), aad(id)) : null;
}

/** Opens a source's credentials (throws SecretsError when the key that sealed them is gone). */
export function openSecrets(box: SecretBox, row: McpSourceRow): Secrets {
  if (!row.secrets) return { headers: {}, env: {} };
  const s = JSON.parse(box.open(row.secrets, aad(row.id))) as Partial<Secrets>;
  return { headers: s.headers ?? {}, env: s.env ?? {} };
}

/** The connection spec of a stored source, credentials opened. */
export function specOf(box: SecretBox, row: McpSourceRow): McpConnectionSpec {
  const s = openSecrets(box, row);
  return row.transport === 'http'
    ? { transport: 'http', url: row.url!, headers: s.headers }
    : { transport: 'stdio', command: row.command!, args: row.args, env: s.env };
}
