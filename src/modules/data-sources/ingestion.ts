import path from 'node:path';
import type { Config } from '../../config.js';
import type { Log } from '../../domain/log.js';
import { chunkAndEmbed, indexFingerprint } from '../../ingest/pipeline.js';
import type { ParsePool } from '../../ingest/parsePool.js';
import type { JobContext, JobQueue } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import { EmbedderError, type Embedder } from '../../rag/embedders/index.js';
import type { NotificationsService, NotifyInput } from '../notifications/service.js';
import type { DataSourceRow, DataSourcesRepository, DocumentInsert } from './repository.js';
import { statusEvent } from './views.js';

/**
 * The ingestion of data sources (docs/data-sources.md): the job that parses, chunks and
 * embeds a source's files, its queueing, the take-over of interrupted ingestions, and the
 * live status and notifications of the outcome. Runs as a job, outside any request: it
 * works on a source id and the workspace id stored on the source (no user scope).
 */

export const INGEST_QUEUE = 'data-source-ingest';

export interface IngestJob {
  dataSourceId: string;
  generation: number;
  /**
   * The user who uploaded the files or asked for the sync; null for a scheduled sync.
   * Decides who hears of the outcome (docs/notifications.md). Absent on jobs queued
   * before this field existed: treated as scheduled.
   */
  requestedBy?: string | null;
}

/** What data sources use of the notifications service: stored notifications, and live events when offered. */
export type DataSourceNotifier = Pick<NotificationsService, 'notifyQuietly'> & Partial<Pick<NotificationsService, 'broadcast'>>;

export interface IngestionDeps {
  repo: DataSourcesRepository;
  jobs: JobQueue;
  embedder: Embedder;
  /** Parses files off the main thread (src/ingest/parsePool.ts). */
  parser: Pick<ParsePool, 'parse'>;
  config: Pick<Config, 'ingest'>;
  /** Tells of finished ingestions, and pushes every status change to open streams (docs/notifications.md). */
  notifications?: DataSourceNotifier;
  /** Runs after an ingestion committed a workspace's chunks (its own HNSW graph when it has grown large, src/rag/graphs.ts). */
  afterIndexed?: (workspaceId: string) => Promise<unknown>;
  log?: Log;
}

/** The job side of data sources. */
export interface DataSourceIngestion {
  /** Queues the ingestion of the row's current generation; a queue failure is shown on the source. Returns the row as now stored. */
  enqueue(row: DataSourceRow, requestedBy: string | null): Promise<DataSourceRow>;
  /** Pushes the source's status to open streams (a row as given, an id read first); `deleted` after a delete. */
  announce(rowOrId: DataSourceRow | string, deleted?: boolean): Promise<void>;
  /** The job: parse -> sections -> chunks -> embeddings -> one transaction of inserts (tests and CLI call it directly). */
  ingest(data: IngestJob, ctx: JobContext): Promise<void>;
  /** Queues again the ingestions whose worker died (no heartbeat for three beats); returns how many. */
  recoverStale(): Promise<number>;
  /** Starts the periodic check for interrupted ingestions (instances with workers). */
  startRecovery(): void;
  /** Stops it, waiting for a check under way. */
  stopRecovery(): Promise<void>;
}

/** Why an ingestion attempt failed, and whether trying again can help. */
function classify(err: unknown): { code: string; message: string; transient: boolean } {
  if (err instanceof AppError) return { code: err.code, message: err.message, transient: false };
  if (err instanceof EmbedderError) return { code: 'EMBEDDING_FAILED', message: err.message, transient: err.transient };
  const message = (err as Error)?.message ?? String(err);
  return { code: 'INGESTION_FAILED', message: message.slice(0, 500), transient: true };
}

/**
 * The notification of a finished ingestion, or null, as for MCP syncs (docs/notifications.md):
 * an upload or a manual sync tells the user who asked, whatever the outcome; a scheduled sync
 * tells everyone with access to the workspace, and only when it failed.
 */
function outcomeNotification(
  ds: DataSourceRow,
  data: IngestJob,
  outcome: { ok: true; documents: number; chunks: number } | { ok: false; code: string; message: string },
): NotifyInput | null {
  const requestedBy = data.requestedBy ?? null;
  if (!requestedBy && outcome.ok) return null;
  const name = ds.name.length > 120 ? `${ds.name.slice(0, 119)}…` : ds.name;
  return {
    ...(requestedBy ? { userIds: [requestedBy] } : {}),
    workspaceId: ds.workspaceId,
    type: outcome.ok ? 'sync_completed' : 'sync_failed',
    title: outcome.ok ? `Sync of data source ${name} finished` : `Sync of data source ${name} failed`,
    body: outcome.ok
      ? `${outcome.documents} ${outcome.documents === 1 ? 'document' : 'documents'} indexed in ${outcome.chunks} ${outcome.chunks === 1 ? 'chunk' : 'chunks'}`
      : `${outcome.code}: ${outcome.message}`.slice(0, 500),
    data: { dataSourceId: ds.id, generation: data.generation, status: outcome.ok ? 'ready' : 'failed', trigger: requestedBy ? 'manual' : 'schedule' },
  };
}

export function dataSourceIngestion(deps: IngestionDeps): DataSourceIngestion {
  const { repo, jobs, embedder, config } = deps;
  const chunking = { size: config.ingest.chunkSize, overlap: config.ingest.chunkOverlap };
  const limits = { maxTextChars: config.ingest.maxTextChars, maxDecompressedBytes: config.ingest.maxDecompressedBytes };

  async function enqueue(row: DataSourceRow, requestedBy: string | null): Promise<DataSourceRow> {
    try {
      const jobId = await jobs.send<IngestJob>(INGEST_QUEUE, { dataSourceId: row.id, generation: row.generation, requestedBy });
      await repo.setJob(row.id, row.generation, jobId);
    } catch (err) {
      deps.log?.error({ err, dataSourceId: row.id }, 'could not queue ingestion');
      await repo.markStatus(row.id, row.generation, 'failed', {
        code: 'QUEUE_UNAVAILABLE',
        message: 'The ingestion job could not be queued; retry with a sync',
      });
      await announce(row.id);
    }
    return (await repo.byId(row.id)) ?? row;
  }

  /**
   * Pushes the source's current status to the open notification streams of everyone who can see
   * the workspace's sources (event `data-source:status`, not stored). Given a row, that state is
   * announced (the caller announces before the next step can start, so events of one source
   * leave in order); given an id, the row is read first.
   */
  async function announce(rowOrId: DataSourceRow | string, deleted = false) {
    if (!deps.notifications?.broadcast) return;
    const row = typeof rowOrId === 'string' ? await repo.byId(rowOrId).catch(() => null) : rowOrId;
    if (!row) return;
    await deps.notifications.broadcast({
      workspaceId: row.workspaceId,
      event: 'data-source:status',
      permission: 'canViewSources',
      payload: statusEvent(row, deleted),
    });
  }

  async function notifyOutcome(ds: DataSourceRow, data: IngestJob, outcome: Parameters<typeof outcomeNotification>[2]) {
    const note = deps.notifications ? outcomeNotification(ds, data, outcome) : null;
    if (note) await deps.notifications!.notifyQuietly(note);
  }

  async function ingest(data: IngestJob, ctx: JobContext): Promise<void> {
    const ds = await repo.byId(data.dataSourceId);
    if (!ds || ds.deletedAt || ds.generation !== data.generation) return; // deleted or superseded
    if (!(await repo.markProcessing(ds.id, data.generation))) return;
    await announce(ds.id);
    // The heartbeat: a source whose ingestion stops beating (its process died) is taken
    // over by another worker (recoverStale) instead of staying `processing`.
    const beat = setInterval(() => void repo.heartbeat(ds.id, data.generation).catch(() => {}), config.ingest.heartbeatSec * 1000);
    try {
      const files = await repo.files(ds.id);
      const docs: DocumentInsert[] = [];
      for (const f of files) {
        ctx.signal.throwIfAborted();
        const parsed = await deps.parser.parse({ content: f.content, filename: f.filename, declaredType: f.declaredType, limits, signal: ctx.signal });
        const title = f.title?.trim() || parsed.doc.title?.trim() || path.parse(f.filename).name || f.filename;
        const url = f.url || `/api/v1/data-sources/${ds.id}/files/${f.id}`;
        const indexed = await chunkAndEmbed(parsed.doc, title, { ...chunking, embedder, signal: ctx.signal });
        docs.push({
          fileId: f.id,
          corpus: null,
          sourceKey: null,
          title,
          url,
          format: parsed.sniffed.format,
          pageCount: parsed.doc.pageCount,
          charCount: parsed.chars,
          contentHash: indexFingerprint(f.content, chunking, embedder.id),
          docDate: f.docDate ?? parsed.doc.date ?? ds.createdAt,
          embeddingModel: embedder.id,
          metadata: { filename: f.filename, sha256: f.sha256 },
          chunks: indexed,
        });
        await repo.setFilesDone(ds.id, data.generation, docs.length);
      }
      ctx.signal.throwIfAborted();
      // false: deleted or superseded meanwhile (the newer sync tells of its own outcome)
      if (await repo.commitIngestion(ds.id, data.generation, docs)) {
        await announce(ds.id);
        await notifyOutcome(ds, data, { ok: true, documents: docs.length, chunks: docs.reduce((n, d) => n + d.chunks.length, 0) });
        await deps.afterIndexed?.(ds.workspaceId);
      }
    } catch (err) {
      if (ctx.signal.aborted) throw err; // the worker is stopping: pg-boss retries the job later
      const c = classify(err);
      const lastTry = ctx.retryCount >= ctx.retryLimit;
      if (c.transient && !lastTry) {
        await repo.markStatus(ds.id, data.generation, 'pending', { code: c.code, message: `Attempt ${ctx.retryCount + 1} failed, retrying: ${c.message}` });
        await announce(ds.id);
        throw err;
      }
      const current = await repo.markStatus(ds.id, data.generation, 'failed', { code: c.code, message: c.message });
      deps.log?.warn({ err, dataSourceId: ds.id }, 'ingestion failed');
      if (current) await announce(ds.id);
      if (current) await notifyOutcome(ds, data, { ok: false, code: c.code, message: c.message });
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Takes over ingestions whose worker died (docs/data-sources.md, "Interrupted
   * ingestion"): a `processing` source without a heartbeat for three beats moves to a new
   * generation and is queued again (the dead attempt's job, when pg-boss finally expires
   * it, finds its generation superseded and does nothing). Runs on instances with workers,
   * at start and every 1.5 beats.
   */
  async function recoverStale(): Promise<number> {
    const taken = await repo.takeOverStale(new Date(Date.now() - 3 * config.ingest.heartbeatSec * 1000));
    for (const row of taken) {
      deps.log?.warn({ dataSourceId: row.id, generation: row.generation }, 'ingestion interrupted (no heartbeat): queued again');
      await enqueue(row, row.createdBy);
    }
    return taken.length;
  }
  let recovery: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;
  const sweep = () => {
    sweeping ??= recoverStale()
      .catch((err: unknown) => deps.log?.error({ err }, 'interrupted ingestion check failed'))
      .finally(() => (sweeping = null));
  };

  jobs.define<IngestJob>(INGEST_QUEUE, ingest, { retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 * 60 });

  return {
    enqueue,
    announce,
    ingest,
    recoverStale,
    startRecovery() {
      if (recovery) return;
      sweep();
      recovery = setInterval(sweep, config.ingest.heartbeatSec * 1500);
      recovery.unref();
    },
    async stopRecovery() {
      if (recovery) clearInterval(recovery);
      recovery = null;
      await sweeping;
    },
  };
}
