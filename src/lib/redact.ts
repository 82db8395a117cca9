import type { FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';

/**
 * Secrets that travel in URLs (vendor questionnaire links carry their token in the
 * path) are masked before a URL is logged.
 */
const PATH_SECRETS = /(\/vendor-questionnaires\/)[^/?#]+/g;
const QUERY_SECRETS = /([?&](?:token)=)[^&#]+/gi;

export function redactUrl(url: string): string {
  return url.replace(PATH_SECRETS, '$1[redacted]').replace(QUERY_SECRETS, '$1[redacted]');
}

/** Fastify's request log serializer, with the URL redacted. */
export function requestSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'] as string | undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * Fields of database errors that carry the data of the statement: the bound parameters
 * (drizzle `params`, postgres-js `parameters`/`args`) and the server's `detail` / `where`
 * ("Failing row contains (...)", "Key (email)=(...) already exists").
 */
const DATA_FIELDS = new Set(['params', 'parameters', 'args', 'types', 'detail', 'where']);
/** drizzle puts the parameters into the message: `Failed query: <sql>\nparams: <values>`. */
const PARAMS_IN_TEXT = /\nparams: [\s\S]*?(?=\n\s+at |$)/;

function scrub(e: unknown, depth = 0): unknown {
  if (!e || typeof e !== 'object' || depth > 5) return e;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (DATA_FIELDS.has(k)) continue;
    if ((k === 'message' || k === 'stack') && typeof v === 'string') out[k] = v.replace(PARAMS_IN_TEXT, '\nparams: [redacted]');
    else if (k === 'cause') out[k] = scrub(v, depth + 1);
    else out[k] = v;
  }
  return out;
}

/**
 * The logger's `err` serializer (docs/reliability.md): pino's, with the cause chain, minus
 * the values a failed statement carried (a password hash, an e-mail address, a token):
 * the SQL text and the error code stay, the parameters and row details go.
 */
export function errorSerializer(err: Error): { type: string; message: string; stack: string; [key: string]: unknown } {
  return scrub(stdSerializers.errWithCause(err)) as ReturnType<typeof errorSerializer>;
}

/** An e-mail address as logged: the domain only (`***@example.com`). */
export const maskEmail = (address: string) => address.replace(/^[^@]*/, '***');
