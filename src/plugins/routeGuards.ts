import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.js';
import { BAD_STRING, findBadString } from '../lib/hygiene.js';
import type { RateLimitScope } from './rateLimits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No authentication needed (register, login, health...). */
    public?: boolean;
    /** Rate-limit scope in addition to the global and general limits. */
    rateLimitScope?: RateLimitScope;
    /** Further limits the route must pass as well (docs/rate-limits.md: the second RAG table). */
    rateLimitExtra?: readonly RateLimitScope[];
    /** Not rate limited at all (health, sync-status). */
    noRateLimit?: boolean;
    /** Workspace-scoped: needs `X-Workspace-Id` and membership. */
    workspace?: boolean;
    /** Workspace permission the route needs (implies `workspace`). */
    permission?: string;
  }
  interface FastifyInstance {
    /** Set by the workspace plugin: resolves `request.workspace` and enforces `permission`. */
    workspaceGuard?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export const API_PREFIX = '/api/v1';

const refuse = (field: string) => badRequest(`${field}: ${BAD_STRING}`, [`${field}: ${BAD_STRING}`]);

/** NUL or unpaired surrogates in the path parameters, the query or the workspace header: 400 naming the field. */
function checkUrlInput(request: FastifyRequest) {
  const field = findBadString(request.params) ?? findBadString(request.query);
  if (field) throw refuse(field);
  const ws = request.headers['x-workspace-id'];
  if (typeof ws === 'string' && findBadString(ws)) throw refuse('X-Workspace-Id');
}

/**
 * The request path of every route, in one place: input hygiene (NUL and unpaired
 * surrogates refused before anything reads the request, docs/api-conventions.md),
 * identify the caller from the token (no database), cross-site write check
 * (plugins/csrf.ts), rate limits (keyed by that user id, else IP), authentication (401),
 * then the workspace context and permission (403). Routes declare what they need in
 * their route config; nothing else checks access.
 */
export default fp(
  async function routeGuards(app: FastifyInstance) {
    // The body is parsed after onRequest: checked before schema validation.
    app.addHook('preValidation', async (request) => {
      const field =
        (request.body !== undefined && request.body !== null && typeof request.body === 'object') || typeof request.body === 'string'
          ? findBadString(request.body)
          : null;
      if (field) throw refuse(field);
    });
    app.addHook('onRoute', (route: RouteOptions) => {
      const cfg = (route.config ?? {}) as Record<string, unknown>;
      const isApi = route.url.startsWith(API_PREFIX);
      const chain: onRequestHookHandler[] = [];
      chain.push(async function inputHygiene(request) {
        checkUrlInput(request);
      });
      chain.push(async function identify(request, reply) {
        await app.identify(request);
        // The response's log line ("request completed") names the API key too.
        if (request.apiKey) reply.log = request.log;
      });
      if (isApi) {
        chain.push(async function csrf(request) {
          app.checkCsrf(request);
        });
      }
      if (isApi && !cfg.noRateLimit) {
        chain.push(async function rateLimits(request, reply) {
          await app.applyRateLimits(request, reply);
        });
      }
      if (isApi && !cfg.public) {
        chain.push(async function authenticate(request, reply) {
          await app.authenticate(request, reply);
        });
      }
      if (cfg.workspace || cfg.permission) {
        // Fails at start-up, not on the first request, when the workspace plugin is missing.
        const guard = app.workspaceGuard;
        if (!guard) throw new Error(`Route ${route.url} needs the workspace plugin, registered before it`);
        chain.push(async function workspace(request, reply) {
          await guard(request, reply);
        });
      }
      const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [...chain, ...existing];
    });
  },
  { name: 'route-guards', dependencies: ['auth', 'csrf', 'rate-limits'] },
);
