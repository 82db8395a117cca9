import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { type Scope, scopeOf } from '../domain/scope.js';
import { AppError, forbidden } from '../lib/errors.js';
import { PERMISSION_FLAGS, type PermissionFlag } from '../db/schema/workspaces.js';
import { accessDenied, apiKeyNotAllowed, type WorkspaceContext, type WorkspaceResolver, workspaceNotFound } from '../lib/requestAccess.js';

export type { WorkspaceContext };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Name of the path parameter that holds the workspace (routes under
     * /workspaces/:id). Without it the workspace comes from `X-Workspace-Id`.
     */
    workspaceParam?: string;
  }
  interface FastifyRequest {
    /** Set on workspace-scoped routes by the workspace plugin: the caller's access. */
    workspace: WorkspaceContext | null;
    /**
     * Set with `workspace`: the scope every workspace-scoped service takes first
     * (src/domain/scope.ts). Read it through `requestScope(request)` in handlers.
     */
    scope: Scope | null;
  }
  interface FastifyInstance {
    /** Every workspace-scoped route registered after the plugin (for the authorization matrix test and docs). */
    workspaceRoutes: readonly WorkspaceRouteInfo[];
  }
}

export interface WorkspaceRouteInfo {
  method: string;
  url: string;
  /** The permission flag the route needs, or null (any member). */
  permission: PermissionFlag | null;
  /** Path parameter holding the workspace, or null (`X-Workspace-Id`). */
  workspaceParam: string | null;
}

export const WORKSPACE_HEADER = 'x-workspace-id';
/** An opaque id (UUID) or a human-readable `workspaceId`. */
const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

function headerError(problem: string) {
  const detail = `X-Workspace-Id: ${problem}`;
  return new AppError(400, 'VALIDATION_ERROR', `Validation failed: ${detail}`, [detail]);
}

/**
 * The workspace context, in one place (docs/permissions.md). For routes whose config
 * has `workspace: true` or `permission: '<flag>'` (see routeGuards.ts), after
 * authentication:
 * - the workspace comes from `X-Workspace-Id` (400 when missing or malformed), or from
 *   the path parameter named by `config.workspaceParam` (404 when unknown);
 * - the caller's access is resolved (explicit membership, else the organization role
 *   mapping); no access -> 403 `Access denied to this workspace`;
 * - `config.permission` must be one of the flags; when the caller's flag is false ->
 *   403 INSUFFICIENT_PERMISSION;
 * - `request.workspace` = { id, workspaceId, orgId, role, permissions, ... }.
 */
/** The request's scope on a workspace-scoped route (the route config declared `workspace` or `permission`). */
export function requestScope(request: FastifyRequest): Scope {
  if (!request.scope) throw new Error(`${request.routeOptions.url ?? request.url}: no workspace scope (the route config must declare workspace or permission)`);
  return request.scope;
}

/** The caller's access (role, flags, membership) on a workspace-scoped route, for routes that manage the workspace itself. */
export function requestAccess(request: FastifyRequest): WorkspaceContext {
  if (!request.workspace)
    throw new Error(`${request.routeOptions.url ?? request.url}: no workspace access (the route config must declare workspace or permission)`);
  return request.workspace;
}

export default fp<{ service: WorkspaceResolver }>(
  async function workspacePlugin(app: FastifyInstance, { service }) {
    app.decorateRequest('workspace', null);
    app.decorateRequest('scope', null);

    const routes: WorkspaceRouteInfo[] = [];
    app.decorate('workspaceRoutes', routes);
    app.addHook('onRoute', (route: RouteOptions) => {
      const cfg = (route.config ?? {}) as { permission?: unknown; workspace?: unknown; workspaceParam?: unknown };
      // A typo in a route's permission would silently lock everyone out: fail at start-up.
      if (cfg.permission !== undefined && !PERMISSION_FLAGS.includes(cfg.permission as PermissionFlag)) {
        throw new Error(`Route ${String(route.method)} ${route.url}: unknown permission ${String(cfg.permission)} (one of ${PERMISSION_FLAGS.join(', ')})`);
      }
      if (!cfg.workspace && !cfg.permission) return;
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        routes.push({
          method,
          url: route.url,
          permission: (cfg.permission as PermissionFlag | undefined) ?? null,
          workspaceParam: typeof cfg.workspaceParam === 'string' ? cfg.workspaceParam : null,
        });
      }
    });

    app.decorate('workspaceGuard', async (request: FastifyRequest) => {
      const auth = request.auth;
      if (!auth) throw accessDenied();
      const cfg = (request.routeOptions.config ?? {}) as { workspaceParam?: string; permission?: PermissionFlag };
      let key: string;
      let fromPath = false;
      if (cfg.workspaceParam) {
        const v = (request.params as Record<string, unknown> | undefined)?.[cfg.workspaceParam];
        if (typeof v !== 'string' || !KEY_RE.test(v)) throw workspaceNotFound();
        key = v;
        fromPath = true;
      } else {
        const h = request.headers[WORKSPACE_HEADER];
        if (h === undefined || h === '') throw headerError('is required');
        if (typeof h !== 'string' || !KEY_RE.test(h.trim())) throw headerError('must be a workspace id');
        key = h.trim();
      }
      let access = await service.resolveAccess(auth.id, key);
      if (access === 'not_found') throw fromPath ? workspaceNotFound() : accessDenied();
      if (access === 'denied') throw accessDenied();
      const apiKey = request.apiKey;
      if (apiKey) {
        // An API key: only its own workspaces, only the flags both it and its creator hold
        // now, and no change to a workspace itself (members, settings, leaving) (docs/api-keys.md).
        if (!apiKey.workspaceIds.includes(access.id) || apiKey.orgId !== access.orgId) throw accessDenied();
        if (fromPath && request.method !== 'GET') throw apiKeyNotAllowed();
        const held = access.permissions;
        access = { ...access, permissions: Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, held[f] && apiKey.permissions[f]])) as typeof held };
      }
      request.workspace = access;
      request.scope = {
        ...scopeOf({ id: access.id, slug: access.workspaceId, name: access.name, orgId: access.orgId }, auth.id),
        ...(apiKey ? { apiKeyId: apiKey.id } : {}),
      };
      if (cfg.permission && !access.permissions[cfg.permission]) {
        throw forbidden(`Insufficient permission: this action requires ${cfg.permission}`, 'INSUFFICIENT_PERMISSION');
      }
    });
  },
  { name: 'workspace', dependencies: ['auth', 'route-guards'] },
);
