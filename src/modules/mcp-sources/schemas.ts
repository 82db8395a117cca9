import { Type } from 'typebox';
import { MCP_SYNC_STATUSES, MCP_SYNC_TRIGGERS, MCP_TRANSPORTS } from '../../db/schema/mcp.js';
import { Envelope, errorResponses } from '../../lib/envelope.js';
import { MCP_SORT_COLUMNS } from './repository.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

/** Request and response schemas of the /mcp-sources routes (docs/mcp-sources.md), one per route. */

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Transport = Type.Enum([...MCP_TRANSPORTS], {
  description: '`http` (Streamable HTTP URL) or `stdio` (a command the server runs; only when enabled by configuration)',
});
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'Streamable HTTP endpoint (http/https); checked against the network rules' });
const Command = Type.String({ minLength: 1, maxLength: 1024, pattern: '\\S', description: 'Executable of a stdio server' });
const Args = Type.Array(Type.String({ maxLength: 4096 }), {
  maxItems: 64,
  description: 'Arguments of the command (stored and returned in clear: put secrets in env)',
});
const SecretMap = (what: string) =>
  Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.String({ maxLength: 32768 }), {
    description: `${what}: stored encrypted (AES-256-GCM), never returned; only the names are shown`,
  });
// Null first: with type coercion on, a union tried string-first would turn null into "".
const NullOr = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
const SecretPatch = (what: string) =>
  NullOr(
    Type.Record(Type.String({ minLength: 1, maxLength: 128 }), NullOr(Type.String({ maxLength: 32768 })), {
      description: `${what}: merged into the stored ones; a null value removes one, null for the whole object removes all`,
    }),
  );

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    description: Type.Optional(NullOr(Type.String({ maxLength: 2000 }))),
    transport: Transport,
    url: Type.Optional(Url),
    headers: Type.Optional(SecretMap('HTTP headers sent to the server (e.g. Authorization)')),
    command: Type.Optional(Command),
    args: Type.Optional(Args),
    env: Type.Optional(SecretMap('Environment variables of the stdio server process')),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    sync: Type.Optional(Type.Boolean({ default: true, description: 'Queue a first sync at once (default true)' })),
  },
  { additionalProperties: false },
);

const TestBody = Type.Object(
  {
    transport: Transport,
    url: Type.Optional(Url),
    headers: Type.Optional(SecretMap('HTTP headers sent to the server')),
    command: Type.Optional(Command),
    args: Type.Optional(Args),
    env: Type.Optional(SecretMap('Environment variables of the stdio server process')),
  },
  { additionalProperties: false },
);

const UpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    description: Type.Optional(NullOr(Type.String({ maxLength: 2000 }))),
    transport: Type.Optional(Transport),
    url: Type.Optional(Url),
    headers: Type.Optional(SecretPatch('HTTP headers')),
    command: Type.Optional(Command),
    args: Type.Optional(Args),
    env: Type.Optional(SecretPatch('Environment variables')),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

const ServerInfo = Type.Object({
  name: Type.String(),
  version: Type.String(),
  title: Type.Optional(Type.String()),
  protocolVersion: Type.Optional(Type.String()),
  instructions: Type.Optional(Type.String()),
  capabilities: Type.Object({ resources: Type.Boolean(), tools: Type.Boolean(), prompts: Type.Boolean() }),
});

const SyncError = Type.Object({ uri: Type.Optional(Type.String()), message: Type.String() });

export const SyncRunSchema = Type.Object({
  id: Type.String(),
  status: Type.Enum([...MCP_SYNC_STATUSES], { description: '`queued`, `running`, `succeeded`, `partial` (finished, some resources failed) or `failed`' }),
  trigger: Type.Enum([...MCP_SYNC_TRIGGERS]),
  jobId: Nullable(Type.String()),
  queuedAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  durationMs: Nullable(Type.Number()),
  resources: Type.Object({
    listed: Type.Number(),
    added: Type.Number(),
    updated: Type.Number(),
    unchanged: Type.Number(),
    removed: Type.Number(),
    failed: Type.Number(),
  }),
  chunksIndexed: Type.Number(),
  error: Nullable(Type.String()),
  errors: Type.Array(SyncError),
});

export const McpSourceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  transport: Transport,
  url: Nullable(Type.String()),
  command: Nullable(Type.String()),
  args: Type.Array(Type.String()),
  headerNames: Type.Array(Type.String(), { description: 'Names of the stored headers (values are never returned)' }),
  envNames: Type.Array(Type.String(), { description: 'Names of the stored environment variables (values are never returned)' }),
  enabled: Type.Boolean(),
  server: Nullable(ServerInfo),
  syncStatus: Type.Enum(['never', ...MCP_SYNC_STATUSES]),
  lastSync: Nullable(SyncRunSchema),
  documentCount: Type.Number(),
  chunkCount: Type.Number(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const ResourceItem = Type.Object({
  uri: Type.String(),
  name: Type.String(),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  mimeType: Type.Optional(Type.String()),
  size: Type.Optional(Type.Number()),
  lastModified: Type.Optional(Type.String()),
});
const ToolItem = Type.Object({ name: Type.String(), title: Type.Optional(Type.String()), description: Type.Optional(Type.String()) });

const ConnectionResult = Type.Object({
  ok: Type.Boolean(),
  latencyMs: Type.Number(),
  server: Type.Optional(ServerInfo),
  resources: Type.Optional(Type.Object({ count: Type.Number(), truncated: Type.Boolean(), items: Type.Array(ResourceItem) })),
  tools: Type.Optional(Type.Object({ count: Type.Number(), items: Type.Array(ToolItem) })),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
});

const StatsSchema = Type.Object({
  mcpSourceId: Type.String(),
  documents: Type.Number(),
  chunks: Type.Number(),
  characters: Type.Number(),
  resources: Type.Object({ tracked: Type.Number(), indexed: Type.Number(), failed: Type.Number(), removed: Type.Number() }),
  lastSync: Nullable(SyncRunSchema),
  lastSyncAt: Nullable(Type.String()),
  lastSyncStatus: Type.Enum(['never', ...MCP_SYNC_STATUSES]),
  lastSyncDurationMs: Nullable(Type.Number()),
  lastSuccessfulSyncAt: Nullable(Type.String()),
  syncs: Type.Object({
    total: Type.Number(),
    succeeded: Type.Number(),
    partial: Type.Number(),
    failed: Type.Number(),
    averageDurationMs: Nullable(Type.Number()),
  }),
  errors: Type.Array(Type.Object({ uri: Type.String(), message: Type.String(), at: Type.String() })),
});

const IdParams = Type.Object({ id: Id });
const tags = ['mcp-sources'];

export const CreateMcpSource = {
  operationId: 'createMcpSource',
  tags,
  summary: 'Register an MCP server (Streamable HTTP URL or stdio command); a first sync is queued unless `sync` is false',
  body: CreateBody,
  response: { 201: Envelope(Type.Object({ mcpSource: McpSourceSchema, sync: Nullable(SyncRunSchema) })), ...errorResponses },
};

export const ListMcpSources = {
  operationId: 'listMcpSources',
  tags,
  summary: 'MCP sources of the workspace',
  querystring: Type.Object(
    {
      ...pageQuery(),
      sort: Type.Enum(
        Object.keys(MCP_SORT_COLUMNS).flatMap((k) => [k, `-${k}`]),
        { default: '-createdAt' },
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Envelope(
      Type.Object({
        mcpSources: Type.Array(McpSourceSchema),
        pagination: PaginationSchema,
      }),
    ),
    ...errorResponses,
  },
};

export const TestMcpConnection = {
  operationId: 'testMcpConnection',
  tags,
  summary: 'Connect with the given settings, list resources and tools, disconnect; nothing is stored. A server that cannot be reached gives ok=false',
  body: TestBody,
  response: { 200: Envelope(Type.Object({ connection: ConnectionResult })), ...errorResponses },
};

export const GetMcpSource = {
  operationId: 'getMcpSource',
  tags,
  summary: 'One MCP source (credentials are never returned, only their names)',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ mcpSource: McpSourceSchema })), ...errorResponses },
};

export const UpdateMcpSource = {
  operationId: 'updateMcpSource',
  tags,
  summary: 'Update name, description, enabled or connection settings (headers/env are merged; null removes)',
  params: IdParams,
  body: UpdateBody,
  response: { 200: Envelope(Type.Object({ mcpSource: McpSourceSchema })), ...errorResponses },
};

export const DeleteMcpSource = {
  operationId: 'deleteMcpSource',
  tags,
  summary: 'Delete the MCP source, its indexed documents and chunks, and its sync history',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ id: Type.String(), deletedDocuments: Type.Number(), deletedChunks: Type.Number() })), ...errorResponses },
};

export const SyncMcpSource = {
  operationId: 'syncMcpSource',
  tags,
  summary: 'Queue a sync job (answers at once with its state; a sync already queued is returned instead of a second one)',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ sync: SyncRunSchema })), ...errorResponses },
};

export const GetMcpSyncRun = {
  operationId: 'getMcpSync',
  tags,
  summary: 'State of one sync run (poll after triggering a sync)',
  params: Type.Object({ id: Id, syncId: Id }),
  response: { 200: Envelope(Type.Object({ sync: SyncRunSchema })), ...errorResponses },
};

export const McpSourceStats = {
  operationId: 'getMcpSourceStats',
  tags,
  summary: 'Document and chunk counts, resource states, last sync (time, status, duration), sync totals and errors',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ stats: StatsSchema })), ...errorResponses },
};
