import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimitScope } from './rateLimits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No authentication needed (register, login, health...). */
    public?: boolean;
    /** Rate-limit scope in addition to the global and general limits. */
    rateLimitScope?: RateLimitScope;
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

/**
 * The request path of every route, in one place: identify the caller from the token
 * (no database), rate limits (keyed by that user id, else IP), authentication (401),
 * then the workspace context and permission (403). Routes declare what they need in
 * their route config; nothing else checks access.
 */
export default fp(async function routeGuards(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const cfg = (route.config ?? {}) as Record<string, unknown>;
    const isApi = route.url.startsWith(API_PREFIX);
    const chain: onRequestHookHandler[] = [];
    chain.push(async function identify(request) {
      await app.identify(request);
    });
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
      chain.push(async function workspace(request, reply) {
        if (!app.workspaceGuard) throw new Error(`Route ${route.url} needs the workspace plugin`);
        await app.workspaceGuard(request, reply);
      });
    }
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [...chain, ...existing];
  });
});
