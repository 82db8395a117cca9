import { Type, type Static, type TSchema } from 'typebox';

/**
 * The sync state of one source of a workspace (a data source or an MCP source), in one
 * vocabulary for both kinds (`GET /sync-status`, docs/sync-status.md). Each sources
 * module reports its sources in this shape; the sync-status module adds the schedule.
 */

/** `queued`: a sync waits for a worker; `syncing`: a worker is on it; `ready`: the last sync succeeded; `error`: it failed; `never`: never synced; `disabled`: an MCP source that is switched off. */
export const SOURCE_SYNC_STATES = ['syncing', 'queued', 'error', 'never', 'ready', 'disabled'] as const;
export type SourceSyncStateName = (typeof SOURCE_SYNC_STATES)[number];
export const SOURCE_KINDS = ['data_source', 'mcp_source'] as const;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const SyncProgressSchema = Type.Object({
  done: Type.Integer({ description: 'items finished so far in this run' }),
  total: Type.Integer({ description: 'items the run works through' }),
  unit: Type.Enum(['files', 'resources']),
});

export const SyncJobSchema = Type.Object({
  /** The queue job (pg-boss id), null while it is being queued. */
  id: Nullable(Type.String()),
  /** The MCP sync run, for `GET /mcp-sources/:id/syncs/:syncId`; null for data sources. */
  runId: Nullable(Type.String()),
  state: Type.Enum(['queued', 'running']),
  trigger: Nullable(Type.String({ description: '`manual`, `schedule` or `create` (MCP sources); null for data sources' })),
  queuedAt: Type.String(),
  startedAt: Nullable(Type.String()),
  attempt: Type.Integer({ description: 'attempt number of this sync (retries count up)' }),
  progress: Nullable(SyncProgressSchema),
});

export const SourceSyncStateSchema = Type.Object({
  id: Type.String(),
  kind: Type.Enum([...SOURCE_KINDS]),
  name: Type.String(),
  state: Type.Enum([...SOURCE_SYNC_STATES]),
  /** The source's own status: a data source `status`, or an MCP source's latest run status (`never` before the first). */
  status: Type.String(),
  lastSyncAt: Nullable(Type.String({ description: 'when the last finished sync ended (success or failure)' })),
  lastSuccessAt: Nullable(Type.String({ description: 'when the last successful sync ended' })),
  nextSyncAt: Nullable(Type.String({ description: 'next scheduled sync of this source (the workspace schedule); null when none is scheduled' })),
  job: Nullable(SyncJobSchema),
  lastError: Nullable(Type.Object({ code: Nullable(Type.String()), message: Type.String(), at: Nullable(Type.String()) })),
});
export type SourceSyncState = Static<typeof SourceSyncStateSchema>;
