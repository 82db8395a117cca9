import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { newId } from '../../lib/ids.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

/** How the service reaches an MCP server (docs/mcp-sources.md). */
export const MCP_TRANSPORTS = ['http', 'stdio'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/** State of one sync run; `partial` = finished, some resources failed. */
export const MCP_SYNC_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed'] as const;
export type McpSyncStatus = (typeof MCP_SYNC_STATUSES)[number];

export const MCP_SYNC_TRIGGERS = ['create', 'manual', 'schedule'] as const;
export type McpSyncTrigger = (typeof MCP_SYNC_TRIGGERS)[number];

/**
 * An MCP server registered as a data source of a workspace. Credentials (HTTP headers,
 * stdio environment variables) are sealed together in `secrets` (AES-256-GCM, bound to
 * the row id) and never returned; only their names are kept in clear.
 */
export const mcpSources = pgTable(
  'mcp_sources',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    transport: text('transport').$type<McpTransport>().notNull(),
    /** Streamable HTTP endpoint (transport `http`). */
    url: text('url'),
    /** Executable and arguments (transport `stdio`). */
    command: text('command'),
    args: jsonb('args').$type<string[]>().notNull().default([]),
    /** Sealed JSON `{ headers, env }` (src/lib/secrets.ts), NULL when there are none. */
    secrets: text('secrets'),
    headerNames: jsonb('header_names').$type<string[]>().notNull().default([]),
    envNames: jsonb('env_names').$type<string[]>().notNull().default([]),
    /** Disabled sources are not synced (manual or scheduled). */
    enabled: boolean('enabled').notNull().default(true),
    /** Server name/version/capabilities seen at the last successful connection. */
    serverInfo: jsonb('server_info').$type<Record<string, unknown>>(),
    /** Bumped by every change of the connection settings (a running sync of an older one does not commit its resource list). */
    configVersion: integer('config_version').notNull().default(1),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mcp_sources_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * Per-resource sync state of an MCP source: the version the server announced
 * (`annotations.lastModified`), the hash of the text indexed, and the indexed document.
 * Unchanged resources are skipped; removed ones are marked `removed` and their document
 * soft-deleted.
 */
export const mcpResources = pgTable(
  'mcp_resources',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    sourceId: text('source_id')
      .notNull()
      .references(() => mcpSources.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    uri: text('uri').notNull(),
    name: text('name').notNull(),
    title: text('title'),
    mimeType: text('mime_type'),
    /** `annotations.lastModified` of the listing, when the server gives one. */
    version: text('version'),
    /** sha256 of the bytes indexed. */
    contentHash: text('content_hash'),
    /** The indexed document (documents.id); NULL when never indexed or removed. */
    documentId: text('document_id'),
    chunkCount: integer('chunk_count').notNull().default(0),
    charCount: integer('char_count').notNull().default(0),
    /** `indexed`, `failed` (see `error`) or `removed` (no longer listed by the server). */
    status: text('status').notNull(),
    error: text('error'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    indexedAt: timestamp('indexed_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('mcp_resources_source_uri_uidx').on(t.sourceId, t.uri)],
);

export interface McpSyncError {
  uri?: string;
  message: string;
}

/** One sync of an MCP source (a pg-boss job): counts, timing and errors. */
export const mcpSyncRuns = pgTable(
  'mcp_sync_runs',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    sourceId: text('source_id')
      .notNull()
      .references(() => mcpSources.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    trigger: text('trigger').$type<McpSyncTrigger>().notNull(),
    status: text('status').$type<McpSyncStatus>().notNull().default('queued'),
    jobId: text('job_id'),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    resourcesListed: integer('resources_listed').notNull().default(0),
    resourcesAdded: integer('resources_added').notNull().default(0),
    resourcesUpdated: integer('resources_updated').notNull().default(0),
    resourcesUnchanged: integer('resources_unchanged').notNull().default(0),
    resourcesRemoved: integer('resources_removed').notNull().default(0),
    resourcesFailed: integer('resources_failed').notNull().default(0),
    chunksIndexed: integer('chunks_indexed').notNull().default(0),
    error: text('error'),
    errors: jsonb('errors').$type<McpSyncError[]>().notNull().default([]),
  },
  (t) => [
    index('mcp_sync_runs_source_idx').on(t.sourceId, t.queuedAt),
    // At most one queued and one running run per source.
    uniqueIndex('mcp_sync_runs_one_queued_uidx').on(t.sourceId).where(sql`"status" = 'queued'`),
    uniqueIndex('mcp_sync_runs_one_running_uidx').on(t.sourceId).where(sql`"status" = 'running'`),
  ],
);
