import { createHash } from 'node:crypto';
import { vendorNamesOf } from '../../domain/vendorNames.js';
import { applicableObligations, type VendorObligation } from '../../compliance/obligations.js';
import { runGapAnalysis, type VerdictJudge } from '../../compliance/gapAnalysis.js';
import { riskRating } from '../../compliance/risk.js';
import type { Config } from '../../config.js';
import type { AssessmentStatus, AssessmentSummary } from '../../db/schema/assessments.js';
import type { VendorImpact } from '../../compliance/concentration/portfolio.js';
import type { ParsePool } from '../../ingest/parsePool.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import type { Embedder } from '../../rag/embedders/types.js';
import { EmbedderError } from '../../rag/embedders/types.js';
import type { ComplianceService } from '../compliance/service.js';
import type { DataSourcesService } from '../data-sources/service.js';
import type { VendorProfile } from '../../domain/vendorProfile.js';
import type { NotificationsService } from '../notifications/service.js';
import type { WorkspacesService } from '../workspaces/service.js';
import { nextReviewAfter } from '../../domain/inventory.js';
import type { Scope } from '../../domain/scope.js';
import type { AssessmentRow, AssessmentsRepository, NewDocument, RegisterGap, SortField } from './repository.js';
import { pagination, type Pagination } from '../../domain/paging.js';
import type { GapResult } from '../../domain/gap.js';
import { assessmentReviewService, type AssessmentReviewService } from './review.js';
import { shape, shapeDocument, shapeReview, type AssessmentDocumentView, type AssessmentReviewView, type AssessmentView } from './views.js';

export type { AssessmentDocumentView, AssessmentView } from './views.js';

export const ANALYSIS_QUEUE = 'assessment-analysis';

/** The part of the job queue (src/jobs/queue.ts) this module uses. */
export interface AssessmentJobs {
  define<T>(name: string, handler: (data: T, ctx: { retryCount: number; retryLimit: number }) => Promise<void>, options?: { retryLimit?: number }): void;
  send<T extends object>(name: string, data: T): Promise<string>;
}

export interface IncomingFile {
  filename: string;
  declaredType: string | null;
  content: Buffer;
}

type Deps = {
  repo: AssessmentsRepository;
  compliance: Pick<ComplianceService, 'isLoaded' | 'articles'>;
  workspaces: Pick<WorkspacesService, 'get' | 'applyProfileValues'>;
  /** The workspace's uploaded documents, which an assessment can reuse instead of a new upload. */
  dataSources?: Pick<DataSourcesService, 'filesByIds' | 'fileBySha256'>;
  embedder?: Embedder;
  /** The model path of the verdicts (src/compliance/verdictModel.ts), with ANTHROPIC_API_KEY; absent: offline reading. */
  judge?: VerdictJudge;
  /** Parses the uploads off the main thread (src/ingest/parsePool.ts). */
  parser: Pick<ParsePool, 'parse'>;
  config: Pick<Config, 'ingest'>;
  /** Absent: the analysis runs in this process right after the request (tests of pure parts, tools). */
  jobs?: AssessmentJobs;
  log?: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /**
   * Tells the one who started an assessment that its analysis finished, and every open
   * dashboard of the workspace each change of status (`assessment:status`, docs/notifications.md).
   */
  notifications?: Pick<NotificationsService, 'notifyQuietly' | 'broadcast'>;
  /** What the vendor would add to concentration (docs/concentration.md): in the report of a vendor in onboarding. */
  concentration?: { impact(userId: string, workspaceId: string): Promise<VendorImpact> };
};

const referenceNotLoaded = () =>
  new AppError(409, 'REFERENCE_DATA_NOT_LOADED', 'The DORA reference data is not loaded; load it first (npm run seed) before running gap analyses');
const assessmentNotFound = () => notFound('Assessment not found', 'ASSESSMENT_NOT_FOUND');

/** The latest completed assessment of a workspace, without its results (portfolio analytics). */
export type LatestAssessment = Pick<AssessmentRow, 'id' | 'workspaceId' | 'name' | 'score' | 'riskRating' | 'completedAt' | 'summary'>;
/** The latest completed assessment of a workspace with its gaps (register of information). */
export type LatestAssessmentGaps = Pick<AssessmentRow, 'id' | 'workspaceId' | 'name' | 'score' | 'riskRating' | 'completedAt'> & { gaps: RegisterGap[] };

/** DORA gap assessments of a workspace's documents, their analysis job and Word report (docs/assessments.md). */
export interface AssessmentsService extends AssessmentReviewService {
  /** Parses the uploads and the reused workspace files (4xx for any unusable file, nothing stored), stores them and queues the analysis. */
  create(
    scope: Scope,
    input: { name?: string | null; files: IncomingFile[]; sourceFileIds?: string[] },
  ): Promise<AssessmentView & { documents: AssessmentDocumentView[] }>;
  /** One page of the workspace's assessments. */
  list(
    scope: Scope,
    q: { page: number; limit: number; status?: AssessmentStatus; sort: string },
  ): Promise<{ assessments: AssessmentView[]; pagination: Pagination }>;
  /** One assessment with its documents and results (404 ASSESSMENT_NOT_FOUND). */
  detail(scope: Scope, id: string): Promise<AssessmentView & { documents: AssessmentDocumentView[]; results: GapResult[]; reviews: AssessmentReviewView[] }>;
  /** One document of the assessment as its text blocks (headings, page): what the evidence quotes point into. */
  document(
    scope: Scope,
    id: string,
    documentId: string,
  ): Promise<
    AssessmentDocumentView & {
      /** The same bytes among the vendor's documents (a live data source file), else null. */
      original: { id: string; dataSourceId: string; filename: string; url: string } | null;
      blocks: { text: string; headings: string[]; page: number | null }[];
    }
  >;
  /** Deletes the assessment and its documents. */
  remove(scope: Scope, id: string): Promise<void>;
  /** The Word report of a completed assessment. */
  report(scope: Scope, id: string): Promise<{ filename: string; buffer: Buffer }>;
  /** Latest completed assessment of each workspace: score, rating, counts (portfolio analytics). */
  latestCompleteMany(workspaceIds: string[]): Promise<Map<string, LatestAssessment>>;
  /** Latest completed assessment of each workspace with its gaps (register of information). */
  latestCompleteGaps(workspaceIds: string[]): Promise<Map<string, LatestAssessmentGaps>>;
  /** Runs the analysis now (the job handler; also used by tools and the benchmark). */
  analyze(id: string): Promise<void>;
}

const isCritical = (p: VendorProfile | null) => p?.criticalityTier === 'critical' || p?.supportsCriticalFunction === true;

export function assessmentsService(deps: Deps): AssessmentsService {
  const { repo } = deps;
  const limits = { maxTextChars: deps.config.ingest.maxTextChars, maxDecompressedBytes: deps.config.ingest.maxDecompressedBytes };

  async function profileOf(workspaceId: string): Promise<{ name: string; profile: VendorProfile | null }> {
    const ws = await deps.workspaces.get(workspaceId);
    return { name: ws?.workspaceName ?? '', profile: (ws?.vendorProfile as VendorProfile | undefined) ?? null };
  }

  /**
   * Live status for open dashboards (`assessment:status`, not stored; never throws): the
   * list fields of the assessment as it is now, or `deleted`.
   */
  async function publishStatus(id: string, deleted?: { workspaceId: string }) {
    if (!deps.notifications) return;
    try {
      const row = deleted ? null : await repo.byId(id);
      if (!row && !deleted) return;
      const payload = row
        ? { ...shape(row), timestamp: Date.now() }
        : { id, workspaceId: deleted!.workspaceId, status: 'deleted', updatedAt: new Date().toISOString(), timestamp: Date.now() };
      await deps.notifications.broadcast({ workspaceId: payload.workspaceId, event: 'assessment:status', payload, permission: 'canViewSources' });
    } catch (err) {
      deps.log?.warn({ err, assessmentId: id }, 'assessment status not announced');
    }
  }

  /** The gap analysis of one assessment; runs in the job (docs/assessments.md). */
  async function analyze(id: string): Promise<void> {
    const row = await repo.byId(id);
    if (!row || !(await repo.markRunning(id))) return;
    await publishStatus(id);
    const docs = await repo.documentsWithText(id);
    const { name, profile } = await profileOf(row.workspaceId);
    const obligations = applicableObligations(profile);
    const { articles } = await deps.compliance.articles({});
    const byNumber = new Map(articles.map((a) => [Number(a.article.replace(/\D+/g, '')), a.obligations]));
    const doraText = (o: VendorObligation) => byNumber.get(o.article)?.find((t) => t.includes(o.dora.match)) ?? '';
    const { results, sentenceCount, judge } = await runGapAnalysis({
      obligations,
      documents: docs.map((d) => ({ id: d.id, filename: d.filename, title: d.title, blocks: d.blocks })),
      embedder: deps.embedder,
      doraText,
      // Who "GitHub" is in "GitHub will notify Customer": the vendor's names.
      vendorNames: vendorNamesOf(name, profile?.legalName),
      judge: deps.judge,
    });
    const risk = riskRating(results, { critical: isCritical(profile) });
    const summary: AssessmentSummary = {
      obligations: results.length,
      covered: results.filter((r) => r.status === 'covered').length,
      partial: results.filter((r) => r.status === 'partial').length,
      missing: results.filter((r) => r.status === 'missing').length,
      documents: docs.length,
      sentences: sentenceCount,
      missingKey: results.filter((r) => r.key && r.status === 'missing').map((r) => r.ref),
      riskReasons: risk.reasons,
      embedder: deps.embedder?.id ?? null,
      verdicts: judge === 'offline' ? 'offline' : `${judge} (${results.filter((r) => r.verdictSource === 'model').length} of ${results.length})`,
    };
    await repo.complete(id, { score: risk.score, riskRating: risk.rating, summary, results });
    await publishStatus(id);
    await announce(id, { failed: false, score: risk.score, riskRating: risk.rating });
  }

  /** The one who started the assessment (else everyone with access to the workspace) hears how it ended. */
  async function announce(id: string, outcome: { failed: false; score: number; riskRating: string } | { failed: true; error: string }) {
    if (!deps.notifications) return;
    const row = await repo.byId(id);
    if (!row) return;
    await deps.notifications.notifyQuietly({
      workspaceId: row.workspaceId,
      ...(row.createdBy ? { userIds: [row.createdBy] } : {}),
      type: outcome.failed ? 'assessment_failed' : 'assessment_completed',
      title: `${outcome.failed ? 'Assessment failed' : 'Assessment complete'}: ${row.name}`.slice(0, 200),
      body: outcome.failed ? outcome.error : `Score ${outcome.score}, risk rating ${outcome.riskRating}.`,
      data: outcome.failed
        ? { assessmentId: id, status: 'failed' }
        : { assessmentId: id, status: 'completed', score: outcome.score, riskRating: outcome.riskRating },
    });
  }

  async function runJob(data: { assessmentId: string }, ctx: { retryCount: number; retryLimit: number }) {
    try {
      await analyze(data.assessmentId);
    } catch (err) {
      // A provider hiccup is worth another attempt; anything else will fail the same way again.
      if (err instanceof EmbedderError && err.transient && ctx.retryCount < ctx.retryLimit) throw err;
      deps.log?.error({ err, assessmentId: data.assessmentId }, 'gap analysis failed');
      await repo.fail(data.assessmentId, `Gap analysis failed: ${(err as Error).message ?? String(err)}`.slice(0, 500));
      await publishStatus(data.assessmentId);
      await announce(data.assessmentId, { failed: true, error: 'The gap analysis failed; see the assessment for the reason.' });
    }
  }

  deps.jobs?.define<{ assessmentId: string }>(ANALYSIS_QUEUE, runJob, { retryLimit: 2 });

  const review = assessmentReviewService({
    repo,
    isCritical: async (workspaceId) => isCritical((await profileOf(workspaceId)).profile),
    // A sign-off is the vendor's review: the next one is a review cycle later (docs/inventory.md).
    onSignedOff: async (workspaceId, at) => {
      await deps.workspaces.applyProfileValues(workspaceId, (profile, sources) => ({
        profile: { ...profile, nextReviewDate: nextReviewAfter(at.toISOString().slice(0, 10), profile.criticalityTier) },
        sources,
      }));
    },
  });

  return {
    ...review,

    async create(scope, input) {
      const reuse = [...new Set(input.sourceFileIds ?? [])];
      const count = input.files.length + reuse.length;
      if (!count) throw badRequest('at least one document is required', ['files: at least one file (or sourceFileIds) is required']);
      if (count > deps.config.ingest.maxFiles) {
        throw badRequest(`at most ${deps.config.ingest.maxFiles} files per assessment`, [`files: at most ${deps.config.ingest.maxFiles}`]);
      }
      if (!(await deps.compliance.isLoaded())) throw referenceNotLoaded();
      const files = [...input.files];
      if (reuse.length) {
        if (!deps.dataSources) throw badRequest('reusing documents is not available', ['sourceFileIds: not supported']);
        for (const f of await deps.dataSources.filesByIds(scope, reuse)) files.push({ filename: f.filename, declaredType: f.mimeType, content: f.content });
      }
      const docs: NewDocument[] = [];
      for (const f of files) {
        const parsed = await deps.parser.parse({ content: f.content, filename: f.filename, declaredType: f.declaredType, limits });
        docs.push({
          filename: f.filename,
          format: parsed.sniffed.format,
          mimeType: parsed.sniffed.mimeType,
          sizeBytes: f.content.length,
          sha256: createHash('sha256').update(f.content).digest('hex'),
          title: parsed.doc.title ?? null,
          pageCount: parsed.doc.pageCount,
          charCount: parsed.chars,
          blocks: parsed.doc.blocks,
        });
      }
      const name = input.name?.trim() || `DORA assessment of ${scope.workspaceName} (${new Date().toISOString().slice(0, 10)})`;
      const row = await repo.insert({ workspaceId: scope.workspaceId, name, createdBy: scope.userId }, docs);
      await publishStatus(row.id);
      if (deps.jobs) {
        const jobId = await deps.jobs.send(ANALYSIS_QUEUE, { assessmentId: row.id });
        await repo.setJob(row.id, jobId);
      } else {
        setImmediate(() => void runJob({ assessmentId: row.id }, { retryCount: 0, retryLimit: 0 }));
      }
      return { ...shape(row), documents: (await repo.documents(row.id)).map(shapeDocument) };
    },

    async list(scope, q) {
      const desc = q.sort.startsWith('-');
      const field = (desc ? q.sort.slice(1) : q.sort) as SortField;
      const { rows, total } = await repo.list(scope, { page: q.page, limit: q.limit, status: q.status, sort: field, desc });
      const signers = await repo.userNames(rows.map((r) => r.signedOffBy));
      return { assessments: rows.map((r) => shape(r, signers.get(r.signedOffBy ?? '') ?? null)), pagination: pagination(q, total) };
    },

    async detail(scope, id) {
      const row = await repo.get(scope, id);
      if (!row) throw assessmentNotFound();
      const signers = await repo.userNames([row.signedOffBy]);
      return {
        ...shape(row, signers.get(row.signedOffBy ?? '') ?? null),
        documents: (await repo.documents(id)).map(shapeDocument),
        results: row.results ?? [],
        reviews: (await repo.reviews(scope, id)).map(shapeReview),
      };
    },

    async document(scope, id, documentId) {
      const row = await repo.get(scope, id);
      if (!row) throw assessmentNotFound();
      const doc = await repo.document(id, documentId);
      if (!doc) throw notFound('Document not found', 'DOCUMENT_NOT_FOUND');
      // The original, when the vendor's documents hold the same bytes (an assessment keeps text, not files).
      const original = (await deps.dataSources?.fileBySha256(scope, doc.sha256)) ?? null;
      return { ...shapeDocument(doc), original, blocks: doc.blocks.map((b) => ({ text: b.text, headings: b.headings, page: b.page ?? null })) };
    },

    async remove(scope, id) {
      const row = await repo.get(scope, id);
      if (!row) throw assessmentNotFound();
      if (row.signedOffAt) {
        throw conflict('The assessment was signed off and is kept as the record of the review; it cannot be deleted', 'ASSESSMENT_SIGNED_OFF');
      }
      if (!(await repo.delete(scope, id))) throw assessmentNotFound();
      await publishStatus(id, { workspaceId: scope.workspaceId });
    },

    async report(scope, id) {
      const row = await repo.get(scope, id);
      if (!row) throw assessmentNotFound();
      if (row.status !== 'completed' || !row.results || !row.summary) {
        throw conflict(`The assessment is ${row.status}; the report is available once the gap analysis has completed`, 'ASSESSMENT_NOT_COMPLETE');
      }
      const { name: vendorName, profile } = await profileOf(scope.workspaceId);
      const documents = await repo.documents(id);
      const reviews = (await repo.reviews(scope, id)).map(shapeReview);
      const view = shape(row, reviews.find((x) => x.kind === 'sign_off')?.userName ?? null);
      // The Word writer (docx) is loaded with the first report, not at start.
      const { buildAssessmentReport } = await import('../../compliance/report.js');
      // A caller outside the organization's register (403, 404) gets the report without the section.
      const impact = deps.concentration
        ? await deps.concentration.impact(scope.userId, scope.workspaceId).catch((e: unknown) => {
            if (e instanceof AppError && (e.statusCode === 403 || e.statusCode === 404)) return null;
            throw e;
          })
        : null;
      const buffer = await buildAssessmentReport({
        assessment: {
          id: row.id,
          name: row.name,
          score: row.score ?? 0,
          riskRating: row.riskRating ?? 'critical',
          summary: row.summary,
          results: row.results,
          completedAt: row.completedAt ?? row.updatedAt,
        },
        vendor: { name: vendorName || scope.workspaceName, legalName: profile?.legalName ?? null, criticalityTier: profile?.criticalityTier ?? null },
        documents: documents.map((d) => ({ filename: d.filename, title: d.title, format: d.format })),
        signOff: view.signOff,
        comments: reviews.filter((x) => x.kind === 'comment'),
        concentration: impact?.onboarding ? impact : null,
      });
      const slug = (vendorName || scope.workspaceName).replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'vendor';
      const date = (row.completedAt ?? new Date()).toISOString().slice(0, 10);
      return { filename: `DORA_Gap_Assessment_${slug}_${date}.docx`, buffer };
    },

    async latestCompleteMany(workspaceIds) {
      const rows = await repo.latestCompleteMany(workspaceIds);
      return new Map(rows.map((r) => [r.workspaceId, r]));
    },

    async latestCompleteGaps(workspaceIds) {
      const rows = await repo.latestCompleteGaps(workspaceIds);
      return new Map(rows.map((r) => [r.workspaceId, r]));
    },

    analyze,
  };
}
