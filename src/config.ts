import { fileURLToPath } from 'node:url';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The one typed configuration object. Every setting is read from the environment
 * here and nowhere else; `.env.example` documents each variable.
 */
const RateLimitWindow = Type.Object({
  max: Type.Integer({ minimum: 1 }),
  windowMs: Type.Integer({ minimum: 1000 }),
  /** The maximum for a request without a verified user (counted per IP); `max` when absent. */
  anonymousMax: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** Live chunks up to which a workspace is searched by exact kNN (`RAG_EXACT_KNN_MAX`; EXACT_KNN_MAX of src/rag/retrieval.ts). */
export const EXACT_KNN_MAX_DEFAULT = 20_000;

export const ConfigSchema = Type.Object({
  env: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')]),
  host: Type.String(),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  logLevel: Type.String(),
  /** PostgreSQL connection string; when empty the embedded PGlite database is used. */
  databaseUrl: Type.Optional(Type.String()),
  /** PGlite data directory (`memory://` keeps it in memory). */
  pgliteDataDir: Type.String(),
  /** Signs access tokens; unset outside production: a random secret per data directory (src/lib/devSecret.ts). */
  jwtSecret: Type.Optional(Type.String({ minLength: 1 })),
  accessTokenTtlSec: Type.Integer({ minimum: 30 }),
  refreshTokenTtlSec: Type.Integer({ minimum: 60 }),
  emailTokenTtlSec: Type.Integer({ minimum: 60 }),
  /** Lifetime of an organization invitation link. */
  invitationTtlSec: Type.Integer({ minimum: 60 }),
  /** Lifetime of a vendor questionnaire link (docs/questionnaires.md). */
  questionnaireTokenTtlSec: Type.Integer({ minimum: 60 }),
  cookieSecure: Type.Boolean(),
  corsOrigins: Type.Array(Type.String()),
  publicUrl: Type.String(),
  redisUrl: Type.Optional(Type.String()),
  rateLimits: Type.Object({
    enabled: Type.Boolean(),
    general: RateLimitWindow,
    auth: RateLimitWindow,
    login: RateLimitWindow,
    register: RateLimitWindow,
    refresh: RateLimitWindow,
    rag: RateLimitWindow,
    sync: RateLimitWindow,
    globalHourly: RateLimitWindow,
    notificationsCount: RateLimitWindow,
    ragas: RateLimitWindow,
    /** The contract's second RAG table: `POST /rag` and `POST /rag/query` per hour, `POST /rag/stream` per hour, the burst of `POST /rag*`. */
    ragQuery: RateLimitWindow,
    ragStream: RateLimitWindow,
    ragBurst: RateLimitWindow,
    /** Redis counters (docs/rate-limits.md): a call not answered within `redisTimeoutMs` falls back to process memory for `redisRetryMs`. */
    redisTimeoutMs: Type.Integer({ minimum: 10 }),
    redisRetryMs: Type.Integer({ minimum: 100 }),
    redisKeyPrefix: Type.String({ minLength: 1, pattern: '^[^{}\\s]+$' }),
  }),
  smtpUrl: Type.Optional(Type.String()),
  mailFrom: Type.String(),
  institutionName: Type.String(),
  /** The financial entity in the Register of Information xBRL-CSV package (docs/register-of-information.md). */
  roi: Type.Object({
    entityLei: Type.Optional(Type.String()),
    entityCountry: Type.Optional(Type.String()),
    /** EBA code of the type of entity, e.g. `eba_CT:x12` (credit institution). */
    entityType: Type.Optional(Type.String()),
    competentAuthority: Type.Optional(Type.String()),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    /** `CON` (consolidated) or `IND` (individual). */
    scope: Type.Enum(['CON', 'IND']),
    /** Reference date (YYYY-MM-DD); default: 31 December of the previous year. */
    referenceDate: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
    totalAssets: Type.Optional(Type.Number({ minimum: 0 })),
    /** EBA code of the licensed activity the vendors' functions support, e.g. `eba_TA:x162`. */
    licensedActivity: Type.Optional(Type.String()),
  }),
  workers: Type.Integer({ minimum: 0 }),
  /** Ingestion limits and chunking (docs/data-sources.md). */
  ingest: Type.Object({
    chunkSize: Type.Integer({ minimum: 200, maximum: 20000 }),
    chunkOverlap: Type.Integer({ minimum: 0 }),
    maxFileBytes: Type.Integer({ minimum: 1 }),
    maxFiles: Type.Integer({ minimum: 1, maximum: 100 }),
    maxDecompressedBytes: Type.Integer({ minimum: 1 }),
    maxTextChars: Type.Integer({ minimum: 1000 }),
    /** Parse workers (threads) per process, and each file's time and memory budget (docs/data-sources.md). */
    parseWorkers: Type.Integer({ minimum: 1, maximum: 16 }),
    parseTimeoutMs: Type.Integer({ minimum: 100 }),
    parseMemoryMb: Type.Integer({ minimum: 64 }),
    /** A running ingestion marks its source every this many seconds; three missed beats and another worker takes it over. */
    heartbeatSec: Type.Number({ minimum: 0.2 }),
    /**
     * PGlite only: chunk rows per transaction when an ingestion is committed (its single
     * connection serves nothing else during a transaction; docs/data-sources.md).
     */
    pgliteCommitRows: Type.Integer({ minimum: 1, maximum: 100000 }),
  }),
  /** Embedder (docs/retrieval.md): `local` needs nothing; `openai` is any OpenAI-compatible API. */
  embeddings: Type.Object({
    provider: Type.Union([Type.Literal('local'), Type.Literal('openai')]),
    apiUrl: Type.String(),
    apiKey: Type.Optional(Type.String()),
    model: Type.String(),
  }),
  /** pg-boss polling interval of the workers (seconds, at least 0.5). */
  jobsPollIntervalSec: Type.Number({ minimum: 0.5 }),
  openapi: Type.Boolean(),
  /** Directory of the built dashboard (docs/dashboard.md) served at `/`. */
  dashboardDir: Type.String(),
  /** Key of the encryption of secrets at rest (AES-256-GCM, src/lib/secrets.ts); previous keys still decrypt. */
  secretsKey: Type.String({ minLength: 1 }),
  secretsKeyPrevious: Type.Array(Type.String()),
  /** MCP sources (docs/mcp-sources.md): outbound network rules, stdio policy, timeouts and sync limits. */
  mcp: Type.Object({
    allowPrivateNetworks: Type.Boolean(),
    allowedHosts: Type.Array(Type.String()),
    stdioEnabled: Type.Boolean(),
    stdioCommands: Type.Array(Type.String()),
    stdioCwd: Type.String(),
    timeoutMs: Type.Integer({ minimum: 100 }),
    maxResources: Type.Integer({ minimum: 1 }),
    maxResourceBytes: Type.Integer({ minimum: 1 }),
  }),
  /** On SIGTERM: how long running requests and jobs get to finish before jobs are told to stop (docs/reliability.md). */
  shutdownGraceMs: Type.Integer({ minimum: 0 }),
  /** Scheduled syncs (docs/sync-schedule.md): how often each instance looks for due workspaces; 0 = never. */
  syncSchedulerIntervalSec: Type.Integer({ minimum: 0 }),
  /** Notifications push channel (docs/notifications.md). */
  notifications: Type.Object({
    heartbeatMs: Type.Integer({ minimum: 100 }),
    maxStreamsPerUser: Type.Integer({ minimum: 1, maximum: 100 }),
  }),
  /** POST /ragas/evaluate (docs/evaluation.md): an external evaluation service when `url` is set, else built-in metrics. */
  ragas: Type.Object({
    url: Type.Optional(Type.String({ pattern: '^https?://' })),
    apiKey: Type.Optional(Type.String()),
    timeoutMs: Type.Integer({ minimum: 100 }),
  }),
  /** Answers (docs/rag.md): generator choice, retrieval depth, conversation context, Anthropic settings. */
  rag: Type.Object({
    generator: Type.Enum(['auto', 'extractive', 'anthropic']),
    topK: Type.Integer({ minimum: 1, maximum: 20 }),
    historyMessages: Type.Integer({ minimum: 0, maximum: 50 }),
    extractiveMaxSentences: Type.Integer({ minimum: 1, maximum: 10 }),
    /** POST /rag/stream with the extractive generator: pause between two sentences of the answer (ms). */
    extractiveStreamIntervalMs: Type.Integer({ minimum: 0, maximum: 2000 }),
    /** A workspace with at most this many live chunks is searched by exact kNN; a larger one walks its own HNSW graph (docs/retrieval.md). */
    exactKnnMax: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    anthropic: Type.Object({
      apiKey: Type.Optional(Type.String()),
      baseUrl: Type.Optional(Type.String()),
      model: Type.String({ minLength: 1 }),
      maxTokens: Type.Integer({ minimum: 1 }),
      timeoutMs: Type.Integer({ minimum: 100 }),
      maxRetries: Type.Integer({ minimum: 0, maximum: 10 }),
    }),
  }),
});
export type Config = Static<typeof ConfigSchema>;

/** Used outside production when SECRETS_KEY is unset; production refuses to start with it. */
export const DEV_SECRETS_KEY = 'dev-only-insecure-secrets-key-change-me-00000';

const MIN = 60_000;
const HOUR = 60 * MIN;

function int(v: string | undefined, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`Invalid integer in environment: ${v}`);
  return n;
}

function bool(v: string | undefined, fallback: boolean): boolean {
  if (v === undefined || v === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

/** A comma-separated list (empty entries dropped). */
function list(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

function limit(env: NodeJS.ProcessEnv, name: string, max: number, windowMs: number, anonymousMax?: number) {
  const w = { max: int(env[`RATE_LIMIT_${name}_MAX`], max), windowMs: int(env[`RATE_LIMIT_${name}_WINDOW_MS`], windowMs) };
  return anonymousMax === undefined ? w : { ...w, anonymousMax: int(env[`RATE_LIMIT_${name}_ANON_MAX`], anonymousMax) };
}

/** Reads and validates the configuration; throws with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const nodeEnv = (env.NODE_ENV ?? 'development') as Config['env'];
  const config: Config = {
    env: nodeEnv,
    host: env.HOST ?? '127.0.0.1',
    port: int(env.PORT, 3000),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDataDir: env.PGLITE_DATA_DIR ?? './.data/pglite',
    jwtSecret: env.JWT_SECRET || undefined,
    accessTokenTtlSec: int(env.ACCESS_TOKEN_TTL_SEC, 15 * 60),
    refreshTokenTtlSec: int(env.REFRESH_TOKEN_TTL_SEC, 7 * 24 * 3600),
    emailTokenTtlSec: int(env.EMAIL_TOKEN_TTL_SEC, 24 * 3600),
    invitationTtlSec: int(env.INVITATION_TTL_SEC, 7 * 24 * 3600),
    questionnaireTokenTtlSec: int(env.QUESTIONNAIRE_TOKEN_TTL_SEC, 30 * 24 * 3600),
    cookieSecure: bool(env.COOKIE_SECURE, nodeEnv === 'production'),
    corsOrigins: (env.CORS_ORIGINS ?? 'http://localhost:3000,http://localhost:5173')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${int(env.PORT, 3000)}`,
    redisUrl: env.REDIS_URL || undefined,
    rateLimits: {
      enabled: bool(env.RATE_LIMIT_ENABLED, true),
      general: limit(env, 'GENERAL', 100, MIN),
      auth: limit(env, 'AUTH', 10, 15 * MIN),
      login: limit(env, 'LOGIN', 10, 15 * MIN),
      register: limit(env, 'REGISTER', 5, HOUR),
      refresh: limit(env, 'REFRESH', 30, HOUR),
      rag: limit(env, 'RAG', 20, MIN),
      sync: limit(env, 'SYNC', 5, HOUR),
      globalHourly: limit(env, 'GLOBAL', 1000, HOUR),
      notificationsCount: limit(env, 'NOTIFICATIONS', 120, HOUR),
      ragas: limit(env, 'RAGAS', 10, HOUR),
      ragQuery: limit(env, 'RAG_QUERY', 100, HOUR, 20),
      ragStream: limit(env, 'RAG_STREAM', 50, HOUR, 10),
      ragBurst: limit(env, 'RAG_BURST', 5, 10_000),
      redisTimeoutMs: int(env.RATE_LIMIT_REDIS_TIMEOUT_MS, 200),
      redisRetryMs: int(env.RATE_LIMIT_REDIS_RETRY_MS, 5000),
      redisKeyPrefix: env.RATE_LIMIT_REDIS_PREFIX || 'dora-rl:',
    },
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'DORA Vendor Service <no-reply@localhost>',
    institutionName: env.INSTITUTION_NAME ?? 'Financial Entity',
    roi: {
      entityLei: env.ROI_ENTITY_LEI || undefined,
      entityCountry: env.ROI_ENTITY_COUNTRY || undefined,
      entityType: env.ROI_ENTITY_TYPE || undefined,
      competentAuthority: env.ROI_COMPETENT_AUTHORITY || undefined,
      currency: env.ROI_CURRENCY || 'EUR',
      scope: (env.ROI_SCOPE || 'CON') as 'CON' | 'IND',
      referenceDate: env.ROI_REFERENCE_DATE || undefined,
      totalAssets: env.ROI_TOTAL_ASSETS ? Number(env.ROI_TOTAL_ASSETS) : undefined,
      licensedActivity: env.ROI_LICENSED_ACTIVITY || undefined,
    },
    workers: int(env.WORKERS, 1),
    ingest: {
      chunkSize: int(env.CHUNK_SIZE, 1200),
      chunkOverlap: int(env.CHUNK_OVERLAP, 200),
      maxFileBytes: int(env.UPLOAD_MAX_FILE_BYTES, 20 * 1024 * 1024),
      maxFiles: int(env.UPLOAD_MAX_FILES, 10),
      maxDecompressedBytes: int(env.UPLOAD_MAX_DECOMPRESSED_BYTES, 100 * 1024 * 1024),
      maxTextChars: int(env.INGEST_MAX_TEXT_CHARS, 5_000_000),
      parseWorkers: int(env.PARSE_WORKERS, 2),
      parseTimeoutMs: int(env.PARSE_TIMEOUT_MS, 120_000),
      parseMemoryMb: int(env.PARSE_MEMORY_MB, 512),
      heartbeatSec: Number(env.INGEST_HEARTBEAT_SEC || 10),
      pgliteCommitRows: int(env.INGEST_PGLITE_COMMIT_ROWS, 8),
    },
    embeddings: {
      provider: (env.EMBEDDER || 'local') as 'local' | 'openai',
      apiUrl: env.EMBEDDING_API_URL || 'https://api.openai.com/v1',
      apiKey: env.EMBEDDING_API_KEY || undefined,
      model: env.EMBEDDING_MODEL || 'text-embedding-3-small',
    },
    jobsPollIntervalSec: Number(env.JOBS_POLL_INTERVAL_SEC || 2),
    openapi: bool(env.OPENAPI, true),
    dashboardDir: env.DASHBOARD_DIR || fileURLToPath(new URL('../web/dist', import.meta.url)),
    secretsKey: env.SECRETS_KEY || DEV_SECRETS_KEY,
    secretsKeyPrevious: list(env.SECRETS_KEY_PREVIOUS),
    mcp: {
      allowPrivateNetworks: bool(env.MCP_ALLOW_PRIVATE_NETWORKS, false),
      allowedHosts: list(env.MCP_ALLOWED_HOSTS),
      stdioEnabled: bool(env.MCP_STDIO_ENABLED, false),
      stdioCommands: list(env.MCP_STDIO_COMMANDS),
      stdioCwd: env.MCP_STDIO_CWD || '.',
      timeoutMs: int(env.MCP_TIMEOUT_MS, 30_000),
      maxResources: int(env.MCP_MAX_RESOURCES, 500),
      maxResourceBytes: int(env.MCP_MAX_RESOURCE_BYTES, 10 * 1024 * 1024),
    },
    shutdownGraceMs: int(env.SHUTDOWN_GRACE_MS, 20_000),
    syncSchedulerIntervalSec: int(env.SYNC_SCHEDULER_INTERVAL_SEC, 300),
    notifications: {
      heartbeatMs: int(env.NOTIFICATIONS_HEARTBEAT_MS, 25_000),
      maxStreamsPerUser: int(env.NOTIFICATIONS_MAX_STREAMS_PER_USER, 10),
    },
    ragas: {
      url: env.RAGAS_URL || undefined,
      apiKey: env.RAGAS_API_KEY || undefined,
      timeoutMs: int(env.RAGAS_TIMEOUT_MS, 60_000),
    },
    rag: {
      generator: (env.RAG_GENERATOR || 'auto') as 'auto' | 'extractive' | 'anthropic',
      topK: int(env.RAG_TOP_K, 5),
      historyMessages: int(env.RAG_HISTORY_MESSAGES, 6),
      extractiveMaxSentences: int(env.RAG_EXTRACTIVE_MAX_SENTENCES, 3),
      extractiveStreamIntervalMs: int(env.RAG_EXTRACTIVE_STREAM_INTERVAL_MS, 60),
      exactKnnMax: int(env.RAG_EXACT_KNN_MAX, EXACT_KNN_MAX_DEFAULT),
      anthropic: {
        apiKey: env.ANTHROPIC_API_KEY || undefined,
        baseUrl: env.ANTHROPIC_BASE_URL || undefined,
        model: env.ANTHROPIC_MODEL || 'claude-sonnet-4-6',
        maxTokens: int(env.ANTHROPIC_MAX_TOKENS, 1024),
        timeoutMs: int(env.ANTHROPIC_TIMEOUT_MS, 60_000),
        maxRetries: int(env.ANTHROPIC_MAX_RETRIES, 2),
      },
    },
    ...overrides,
  };
  const errors = [...Value.Errors(ConfigSchema, config)].map((e) => `${e.instancePath || '/'} ${e.message}`);
  if (config.ingest.chunkOverlap >= config.ingest.chunkSize) errors.push('CHUNK_OVERLAP must be smaller than CHUNK_SIZE');
  if (config.env === 'production') {
    if (!config.jwtSecret || config.jwtSecret.length < 32) {
      errors.push('JWT_SECRET must be set to a random secret of at least 32 characters in production');
    }
    if (config.secretsKey === DEV_SECRETS_KEY || config.secretsKey.length < 32) {
      errors.push('SECRETS_KEY must be set to a random secret of at least 32 characters in production (it encrypts stored MCP credentials)');
    }
  }
  if (errors.length) throw new Error(`Invalid configuration:\n  ${errors.join('\n  ')}`);
  return config;
}
