/**
 * Who asks, in which workspace. Made once per request by the workspace plugin
 * (`request.scope`, src/plugins/workspace.ts) and passed first to every
 * workspace-scoped service and repository function, so that no query of a
 * workspace's rows can be written without it.
 *
 * `workspaceId` is the opaque id (`workspaces.id`) that every workspace-scoped row
 * references; `slug` is the human-readable key the API calls `workspaceId` on a
 * workspace (the contract's field name is kept at the edge, never inside).
 */
export interface Scope {
  /** Opaque workspace id (`workspaces.id`, a UUID). */
  readonly workspaceId: string;
  /** The workspace's human-readable key (the API's `workspaceId` field). */
  readonly slug: string;
  readonly workspaceName: string;
  readonly orgId: string;
  /** The caller. */
  readonly userId: string;
  /** The organization API key the caller came with (requests and analytics are attributed to it), if any. */
  readonly apiKeyId?: string;
}

/** A scope for work that runs outside a request (jobs, CLI, tests): the same shape, built explicitly. */
export function scopeOf(ws: { id: string; slug: string; name: string; orgId: string }, userId: string): Scope {
  return { workspaceId: ws.id, slug: ws.slug, workspaceName: ws.name, orgId: ws.orgId, userId };
}
