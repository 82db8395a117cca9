import type { Log } from '../../domain/log.js';
import { pagination, type PageRequest, offsetOf } from '../../domain/paging.js';
import { afterResponse } from '../../lib/afterResponse.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { newSecret, sha256 } from '../../lib/ids.js';
import type { OrganizationsService } from '../organizations/service.js';
import { PERMISSION_FLAGS, type PermissionFlag, type Permissions } from '../workspaces/permissions.js';
import type { WorkspacesService } from '../workspaces/service.js';
import type { ApiKeyRow, ApiKeysRepository } from './repository.js';
import { API_KEY_PREFIX, type ApiKeyIdentity, apiKeyNotAllowed, isApiKey } from '../../lib/requestAccess.js';

/** Every key starts with API_KEY_PREFIX: recognisable in a log, a config file or a secret scanner. */
export { API_KEY_PREFIX, type ApiKeyIdentity, apiKeyNotAllowed, isApiKey };

/** The flags a key may hold: reading, asking, and managing sources; never people, settings or deletion. */
export const API_KEY_FLAGS = ['canQuery', 'canViewSources', 'canManageSync'] as const satisfies readonly PermissionFlag[];
/** Longest life of a key. */
export const API_KEY_MAX_DAYS = 366;
const KEY_RE = /^dora_sk_[A-Za-z0-9_-]{43}$/;

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  workspaces: { id: string; workspaceId: string; workspaceName: string }[];
  permissions: Permissions;
  status: 'active' | 'expired' | 'revoked';
  createdBy: { id: string; name: string; email: string } | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

const keyNotFound = () => notFound('API key not found', 'API_KEY_NOT_FOUND');

export function apiKeysService(deps: {
  repo: ApiKeysRepository;
  organizations: Pick<OrganizationsService, 'membershipOf'>;
  workspaces: Pick<WorkspacesService, 'resolveAccess' | 'getMany'>;
  usersByIds(ids: string[]): Promise<Map<string, { id: string; name: string; email: string }>>;
  log?: Log;
}) {
  const { repo } = deps;
  const uses = afterResponse('api key: last use', deps.log);

  async function adminOf(orgId: string, userId: string) {
    const m = await deps.organizations.membershipOf(userId);
    if (!m || m.orgId !== orgId) throw notFound('Organization not found', 'ORGANIZATION_NOT_FOUND');
    if (m.role !== 'org_admin') throw forbidden('Insufficient permission: only an org_admin can do this', 'INSUFFICIENT_PERMISSION');
  }

  async function views(rows: ApiKeyRow[]): Promise<ApiKeyView[]> {
    const [users, spaces] = await Promise.all([
      deps.usersByIds([...new Set(rows.map((r) => r.createdBy))]),
      deps.workspaces.getMany([...new Set(rows.flatMap((r) => r.workspaceIds))]),
    ]);
    const ws = new Map(spaces.map((w) => [w.id, w]));
    const now = Date.now();
    return rows.map((r) => {
      const u = users.get(r.createdBy);
      return {
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        workspaces: r.workspaceIds.flatMap((id) => {
          const w = ws.get(id);
          return w ? [{ id: w.id, workspaceId: w.workspaceId, workspaceName: w.workspaceName }] : [];
        }),
        permissions: r.permissions,
        status: r.revokedAt ? 'revoked' : r.expiresAt.getTime() <= now ? 'expired' : 'active',
        createdBy: u ? { id: u.id, name: u.name, email: u.email } : null,
        createdAt: r.createdAt.toISOString(),
        expiresAt: r.expiresAt.toISOString(),
        revokedAt: r.revokedAt?.toISOString() ?? null,
        lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
      };
    });
  }

  return {
    /** Creates a key (org_admin); the secret is returned once and never stored. */
    async create(
      orgId: string,
      adminId: string,
      input: { name: string; expiresAt: string; workspaces: string[]; permissions: Partial<Record<PermissionFlag, boolean>> },
    ): Promise<{ apiKey: ApiKeyView; key: string }> {
      await adminOf(orgId, adminId);
      const name = input.name.trim();
      if (!name) throw badRequest('name: must not be blank', ['name: must not be blank']);
      const expiresAt = new Date(input.expiresAt);
      const problems: string[] = [];
      if (Number.isNaN(expiresAt.getTime())) problems.push('expiresAt: must be an ISO 8601 date-time');
      else if (expiresAt.getTime() <= Date.now()) problems.push('expiresAt: must be in the future');
      else if (expiresAt.getTime() > Date.now() + API_KEY_MAX_DAYS * 86_400_000) problems.push(`expiresAt: must be within ${API_KEY_MAX_DAYS} days`);
      const wanted = API_KEY_FLAGS.filter((f) => input.permissions[f] === true);
      for (const f of PERMISSION_FLAGS)
        if (input.permissions[f] === true && !(API_KEY_FLAGS as readonly string[]).includes(f))
          problems.push(`permissions.${f}: an API key may hold only ${API_KEY_FLAGS.join(', ')}`);
      if (!wanted.length) problems.push(`permissions: at least one of ${API_KEY_FLAGS.join(', ')} must be true`);
      if (problems.length) throw badRequest(problems.join('; '), problems);
      // Never more than the admin's own access: every workspace theirs to open, every flag theirs in it.
      const workspaceIds: string[] = [];
      for (const [i, key] of input.workspaces.entries()) {
        const access = await deps.workspaces.resolveAccess(adminId, key);
        if (access === 'not_found' || access === 'denied' || access.orgId !== orgId)
          throw badRequest(`workspaces.${i}: no workspace of this organization that you can access`, [
            `workspaces.${i}: no workspace of this organization that you can access`,
          ]);
        const missing = wanted.filter((f) => !access.permissions[f]);
        if (missing.length)
          throw forbidden(`Insufficient permission: you do not hold ${missing.join(', ')} in workspace ${access.workspaceId}`, 'INSUFFICIENT_PERMISSION');
        if (!workspaceIds.includes(access.id)) workspaceIds.push(access.id);
      }
      const permissions = Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, wanted.includes(f as (typeof API_KEY_FLAGS)[number])])) as Permissions;
      const key = `${API_KEY_PREFIX}${newSecret(32)}`;
      const row = await repo.insert({
        orgId,
        name: name.slice(0, 100),
        prefix: key.slice(0, API_KEY_PREFIX.length + 6),
        keyHash: sha256(key),
        createdBy: adminId,
        workspaceIds,
        permissions,
        expiresAt,
      });
      return { apiKey: (await views([row]))[0]!, key };
    },

    async list(orgId: string, adminId: string, q: PageRequest) {
      await adminOf(orgId, adminId);
      const { rows, total } = await repo.page(orgId, { limit: q.limit, offset: offsetOf(q) });
      return { apiKeys: await views(rows), pagination: pagination(q, total) };
    },

    async revoke(orgId: string, adminId: string, id: string): Promise<void> {
      await adminOf(orgId, adminId);
      if (!(await repo.revoke(orgId, id))) throw keyNotFound();
    },

    /**
     * The key behind a Bearer secret, or null when it is unknown, revoked or expired. Read
     * from the database on every request (one indexed lookup): a revoked key is refused at
     * once, on every instance. The last use is recorded after the response.
     */
    async authenticate(secret: string): Promise<ApiKeyIdentity | null> {
      if (!KEY_RE.test(secret)) return null;
      const row = await repo.byHash(sha256(secret));
      if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
      if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) uses.run(() => repo.touch(row.id));
      return { id: row.id, orgId: row.orgId, name: row.name, userId: row.createdBy, workspaceIds: row.workspaceIds, permissions: row.permissions };
    },

    settled: () => uses.settled(),
  };
}
export type ApiKeysService = ReturnType<typeof apiKeysService>;

/** 403 for a route an API key may not call (docs/api-keys.md). */
