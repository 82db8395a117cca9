/**
 * What the request path (src/plugins/) and the modules agree on about who is calling and with
 * which access: the shapes the auth and workspace plugins put on the request, the errors they
 * answer with, and the one call the workspace plugin makes to resolve access. The modules
 * implement it (src/modules/workspaces, src/modules/api-keys); the plugins import it from here,
 * so no import runs from the request path up into a module.
 */
import type { OrgRole } from '../db/schema/organizations.js';
import type { Permissions, WorkspaceRole } from '../db/schema/workspaces.js';
import { AppError, forbidden, notFound } from './errors.js';

/** The caller's access to a workspace, as the workspace plugin resolved it (`request.workspace`). */
export interface WorkspaceAccess {
  ownerId: string;
  role: WorkspaceRole;
  permissions: Permissions;
  /** `explicit`: a workspace membership row; `organization`: implied by the organization role. */
  membership: 'explicit' | 'organization';
  orgRole: OrgRole;
}

export interface WorkspaceContext extends WorkspaceAccess {
  /** Opaque id (`workspaces.id`); every workspace-scoped row references it. */
  id: string;
  /** The slug (the API's `workspaceId`). */
  workspaceId: string;
  name: string;
  orgId: string;
}

/** The workspace plugin's one question to the workspaces module. */
export interface WorkspaceResolver {
  /** The caller's access to the workspace with this id or slug. */
  resolveAccess(userId: string, key: string): Promise<WorkspaceContext | 'not_found' | 'denied'>;
}

export const accessDenied = () => forbidden('Access denied to this workspace', 'WORKSPACE_ACCESS_DENIED');
export const workspaceNotFound = () => notFound('Workspace not found', 'WORKSPACE_NOT_FOUND');

/** API keys are told apart from access tokens by their prefix. */
export const API_KEY_PREFIX = 'dora_sk_';

export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** Who calls with an API key (set on the request by the auth plugin). */
export interface ApiKeyIdentity {
  id: string;
  orgId: string;
  name: string;
  /** The org_admin who created it: the key acts with at most their access. */
  userId: string;
  workspaceIds: string[];
  permissions: Permissions;
}

export const apiKeyNotAllowed = () =>
  new AppError(403, 'API_KEY_NOT_ALLOWED', 'This endpoint cannot be called with an API key; API keys call the workspace endpoints they were created for');
