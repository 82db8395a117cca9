import { Type } from 'typebox';
import { pageQuery, PaginationSchema, sortQuery } from '../../domain/paging.js';
import { SOURCE_SYNC_STATES, SourceSyncStateSchema } from '../../domain/syncState.js';
import { Envelope, Nullable, errorResponses } from '../../lib/envelope.js';
import { SYNC_STATUS_SORTS } from './service.js';

/** Schemas of GET /sync-status (docs/sync-status.md). */

const SyncStatus = Type.Object({
  workspaceId: Type.String(),
  syncStatus: Type.Enum(['active', 'syncing', 'error'], { description: 'the workspace `syncStatus` (same rule as GET /workspaces)' }),
  checkedAt: Type.String(),
  lastSyncAt: Nullable(Type.String({ description: 'the latest end of a sync of any source' })),
  schedule: Type.Object({
    enabled: Type.Boolean(),
    intervalHours: Type.Integer(),
    lastRunAt: Nullable(Type.String({ description: 'last scheduled run of the workspace' })),
    nextRunAt: Nullable(Type.String({ description: 'next scheduled run (starts within schedulerIntervalSec of it); null when the schedule is off' })),
    schedulerIntervalSec: Type.Integer(),
  }),
  counts: Type.Object({ total: Type.Integer(), ...Object.fromEntries(SOURCE_SYNC_STATES.map((s) => [s, Type.Integer()])) }),
  sources: Type.Array(SourceSyncStateSchema),
  pagination: PaginationSchema,
});

export const GetSyncStatus = {
  operationId: 'getSyncStatus',
  tags: ['sync'],
  summary: 'Sync state of the workspace: every data source and MCP source with status, last and next sync, running job and progress, last error',
  querystring: Type.Object(
    {
      ...pageQuery({ defaultLimit: 50 }),
      sort: sortQuery(SYNC_STATUS_SORTS, 'state'),
      state: Type.Optional(Type.Enum([...SOURCE_SYNC_STATES], { description: 'only sources in this state' })),
    },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(SyncStatus), ...errorResponses },
};
