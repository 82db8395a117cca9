import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A response body serialised once and sent many times (reference data that does not
 * change while the process runs): the JSON bytes, a gzip copy, and a strong ETag over the
 * JSON. `send` answers 304 to a matching `If-None-Match`, the gzip copy to a client that
 * accepts it, else the JSON (docs/performance.md, "Reference data").
 */
export interface CachedBody {
  json: Buffer;
  gzip: Buffer;
  etag: string;
}

export function cachedBody(serialised: string): CachedBody {
  const json = Buffer.from(serialised);
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
  return { json, gzip: gzipSync(json, { level: 9 }), etag };
}

/** True when an `If-None-Match` list names this ETag (weak comparison, as RFC 9110 asks for GET) or is `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === etag);
}

/** True when `Accept-Encoding` accepts gzip (a q-value of 0 refuses it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return false;
  let star = false;
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
    const accepted = q === undefined || Number(q) > 0;
    if (name === 'gzip' || name === 'x-gzip') return accepted;
    if (name === '*') star = accepted;
  }
  return star;
}

/**
 * Sends a cached body with `Cache-Control` and `ETag`: 304 without a body when the
 * client's copy is current, else 200 (gzip-encoded when the client accepts it).
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, body: CachedBody, cacheControl: string) {
  reply.header('Cache-Control', cacheControl).header('ETag', body.etag).header('Vary', 'Accept-Encoding');
  if (etagMatches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (acceptsGzip(request.headers['accept-encoding'])) return reply.header('Content-Encoding', 'gzip').send(body.gzip);
  return reply.send(body.json);
}
