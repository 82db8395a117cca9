import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { type IdempotencyClaim, idempotencyStore } from '../lib/idempotencyContext.js';
import { checkKey, type IdempotencyStore, requestHash, type StoredResponse } from '../lib/idempotencyContext.js';
import { API_PREFIX } from './routeGuards.js';
import { WORKSPACE_HEADER } from './workspace.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Accepts `Idempotency-Key` (set for every POST that answers 201, and for the question routes). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The `Idempotency-Key` claim of this request, once taken. */
    idempotencyClaim: IdempotencyClaim | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The question routes store an exchange and answer 200: they take a key too (docs/api-conventions.md). */
const ANSWER_ROUTES = new Set(['/rag', '/rag/query', '/rag/stream', '/conversations/:id/ask'].map((u) => `${API_PREFIX}${u}`));

/** Whether a route takes `Idempotency-Key`: an authenticated POST that creates (201) or asks. */
export function isIdempotentRoute(route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>): boolean {
  const methods = [route.method].flat();
  if (!methods.includes('POST') || !route.url.startsWith(API_PREFIX)) return false;
  const cfg = (route.config ?? {}) as { public?: boolean; idempotent?: boolean };
  if (cfg.public) return false;
  if (cfg.idempotent !== undefined) return cfg.idempotent;
  const responses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
  return '201' in responses || ANSWER_ROUTES.has(route.url);
}

/** Who owns a key: keys of different callers never meet. */
export function idempotencyOwner(request: FastifyRequest): string | null {
  const apiKeyId = (request as { apiKey?: { id: string } | null }).apiKey?.id;
  if (apiKeyId) return `key:${apiKeyId}`;
  return request.auth ? `user:${request.auth.id}` : null;
}

function replay(reply: FastifyReply, r: StoredResponse) {
  return reply.code(r.statusCode).header('content-type', r.contentType).header(REPLAYED_HEADER, 'true').send(r.body);
}

/**
 * `Idempotency-Key` (docs/api-conventions.md, "Retries"): a creating or asking POST with the
 * header claims the key for its caller before the handler runs; the handler runs inside the
 * claim's context (src/lib/idempotencyContext.ts), so the effect's transaction marks the
 * claim; the response is stored before it is sent. A retry with the same key and request
 * gets the stored response with `Idempotent-Replayed: true`; another request with the key
 * 422; while the first still runs, 409.
 */
export default fp<{ service: IdempotencyStore }>(
  async function idempotencyPlugin(app: FastifyInstance, { service }) {
    app.decorateRequest('idempotencyClaim', null);

    app.addHook('onRoute', (route: RouteOptions) => {
      if (!isIdempotentRoute(route)) return;
      route.config = { ...(route.config as object), idempotent: true } as typeof route.config;
      const handler = route.handler as RouteHandlerMethod;
      route.handler = function idempotentHandler(this: FastifyInstance, request, reply) {
        const claim = request.idempotencyClaim;
        return claim ? idempotencyStore.run(claim, () => handler.call(this, request, reply)) : handler.call(this, request, reply);
      } as RouteHandlerMethod;
      const preHandler = route.preHandler ? [route.preHandler].flat() : [];
      route.preHandler = [
        async function claimIdempotencyKey(request: FastifyRequest, reply: FastifyReply) {
          const raw = request.headers[IDEMPOTENCY_HEADER];
          if (raw === undefined) return;
          const key = Array.isArray(raw) ? raw[0] : raw;
          checkKey(key);
          const owner = idempotencyOwner(request);
          if (!owner) return;
          const contentType = String(request.headers['content-type'] ?? '');
          // An upload's files are read by the handler, after this point: its request is known by
          // its fields' size only (docs/api-conventions.md).
          const body = contentType.startsWith('multipart/') ? { multipart: request.headers['content-length'] ?? null } : (request.body ?? null);
          const hash = requestHash({
            method: request.method,
            route: request.routeOptions.url ?? request.url,
            params: request.params ?? null,
            workspace: request.headers[WORKSPACE_HEADER] ?? null,
            body,
          });
          const begun = await service.begin({ owner, key, hash, method: request.method, path: request.url.split('?')[0] });
          void service.purge().catch((err: unknown) => request.log.warn({ err }, 'idempotency: purge failed'));
          if (begun.kind === 'replay') return replay(reply, begun.response);
          if (begun.kind === 'refused') {
            if (begun.retryAfter) reply.header('Retry-After', String(begun.retryAfter));
            throw begun.error;
          }
          const claimId = begun.claimId;
          request.idempotencyClaim = { id: claimId, committedWithResponse: () => service.committedWithResponse(claimId) };
        },
        ...preHandler,
      ];
      const onSend = route.onSend ? [route.onSend].flat() : [];
      route.onSend = [
        ...onSend,
        async function storeIdempotentResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
          const claim = request.idempotencyClaim;
          if (!claim) return payload;
          request.idempotencyClaim = null;
          const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
          if (payload && typeof (payload as Readable).pipe === 'function') {
            // A stream (POST /rag/stream): kept as it went out, stored when it ends, given up
            // when it carried an error event or was cut short.
            const tee = new PassThrough();
            const chunks: Buffer[] = [];
            tee.on('data', (c: Buffer | string) => chunks.push(Buffer.from(c)));
            const out = new PassThrough();
            (payload as Readable).pipe(tee).pipe(out);
            const settle = (complete: boolean) => {
              const text = Buffer.concat(chunks).toString('utf8');
              const ok = complete && reply.statusCode < 300 && !/^event: error$/m.test(text);
              const work = ok ? service.complete(claim.id, { statusCode: reply.statusCode, contentType, body: text }) : service.fail(claim.id);
              void work.catch((err: unknown) => request.log.warn({ err }, 'idempotency: the stream outcome was not stored'));
            };
            tee.on('end', () => settle(true));
            (payload as Readable).on('error', () => settle(false));
            reply.raw.on('close', () => {
              if (!tee.readableEnded) settle(false);
            });
            return out;
          }
          const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : JSON.stringify(payload ?? null);
          if (reply.statusCode >= 200 && reply.statusCode < 300) {
            try {
              await service.complete(claim.id, { statusCode: reply.statusCode, contentType, body });
            } catch (err) {
              // The effect is in; its response could not be kept. This client still gets it;
              // a retry with the key learns that the request was carried out (409).
              request.log.warn({ err }, 'idempotency: the response was not stored');
            }
            return payload;
          }
          try {
            const committed = await service.fail(claim.id);
            if (committed) {
              // The effect and its response committed, but the commit's acknowledgement was
              // lost: the client gets the response, not the 503.
              reply.code(committed.statusCode).header('content-type', committed.contentType);
              reply.removeHeader('retry-after');
              return committed.body;
            }
          } catch (err) {
            request.log.warn({ err }, 'idempotency: the claim was not released');
          }
          return payload;
        },
      ];
    });
  },
  { name: 'idempotency', dependencies: ['route-guards', 'workspace'] },
);
