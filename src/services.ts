import type { Log } from './domain/log.js';
import { vendorNamesOf } from './domain/vendorNames.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Mailer } from './lib/mailer.js';
import { authRepository } from './modules/auth/repository.js';
import { authService, type RegisterHook } from './modules/auth/service.js';
import { complianceRepository } from './modules/compliance/repository.js';
import { complianceService } from './modules/compliance/service.js';
import { organizationsRepository } from './modules/organizations/repository.js';
import { organizationsService } from './modules/organizations/service.js';
import { workspacesRepository } from './modules/workspaces/repository.js';
import { workspacesService } from './modules/workspaces/service.js';
import { questionnairesRepository } from './modules/questionnaires/repository.js';
import { questionnairesService } from './modules/questionnaires/service.js';
import { analyticsRepository } from './modules/analytics/repository.js';
import { analyticsService } from './modules/analytics/service.js';
import { portfolioService } from './modules/analytics/portfolio.js';
import { conversationsRepository } from './modules/conversations/repository.js';
import { conversationsService } from './modules/conversations/service.js';
import { judgementService } from './modules/rag/judgement.js';
import { ragRepository } from './modules/rag/repository.js';
import { ragService } from './modules/rag/service.js';
import { createGenerator } from './rag/generators/index.js';
import { createNotificationBus } from './modules/notifications/bus.js';
import { dataSourcesRepository } from './modules/data-sources/repository.js';
import { dataSourcesService } from './modules/data-sources/service.js';
import { createJobQueue } from './jobs/queue.js';
import { createParsePool } from './ingest/parsePool.js';
import { mcpSourcesRepository } from './modules/mcp-sources/repository.js';
import { mcpSourcesService } from './modules/mcp-sources/service.js';
import { syncScheduleRepository } from './modules/sync-schedule/repository.js';
import { syncScheduleService } from './modules/sync-schedule/service.js';
import { dataSourcesTarget, mcpSourcesTarget } from './modules/sync-schedule/targets.js';
import { createEmbedder } from './rag/embedders/index.js';
import { retrievalService } from './rag/retrieval.js';
import { notificationsRepository } from './modules/notifications/repository.js';
import { notificationsService } from './modules/notifications/service.js';
import { evaluationService } from './modules/evaluation/service.js';
import { assessmentsRepository } from './modules/assessments/repository.js';
import { assessmentsService } from './modules/assessments/service.js';
import { documentMetadataRepository } from './modules/document-metadata/repository.js';
import { documentMetadataService } from './modules/document-metadata/service.js';
import { registerService } from './modules/register/service.js';
import { registerRecords } from './modules/register/records.js';
import { registerRepository } from './modules/register/repository.js';
import { contractsService } from './modules/contracts/service.js';
import { concentrationRepository } from './modules/concentration/repository.js';
import { concentrationService } from './modules/concentration/service.js';
import { syncStatusService } from './modules/sync-status/service.js';
import { profileDraftsRepository } from './modules/profile-drafts/repository.js';
import { profileDraftsService } from './modules/profile-drafts/service.js';
import { anthropicExtractor } from './compliance/drafting/model.js';
import { anthropicJudge } from './compliance/verdictModel.js';
import { workspaceGraphs } from './rag/graphs.js';
import { idempotencyRepository } from './modules/idempotency/repository.js';
import { apiKeysRepository } from './modules/api-keys/repository.js';
import { apiKeysService } from './modules/api-keys/service.js';
import { idempotencyService } from './modules/idempotency/service.js';

/**
 * The composition root: every service, wired once. Modules reach each other through
 * these services, never through another module's tables.
 */
export function createServices(deps: { config: Config; database: Database; mailer: Mailer; signAccessToken(userId: string): string; log?: Log }) {
  const { config, database, mailer } = deps;
  const db = database.db;
  const registerHooks: RegisterHook[] = [];
  const auth = authService({ repo: authRepository(db), mailer, config, signAccessToken: deps.signAccessToken, onRegistered: registerHooks, log: deps.log });
  const compliance = complianceService(complianceRepository(db));
  // Created early so that every other service can notify; a workspace's recipients come
  // from the workspaces service (resolved when a notification is sent).
  const notifications = notificationsService({
    repo: notificationsRepository(db),
    workspaceMembers: (workspaceId, permission) => workspaces.memberUserIds(workspaceId, permission),
    createBus: (receive) => createNotificationBus(database, receive, deps.log),
    maxStreamsPerUser: config.notifications.maxStreamsPerUser,
    log: deps.log,
  });
  const organizations = organizationsService({ repo: organizationsRepository(db), users: auth, mailer, config, notifications });
  // An invited user who registers with the invitation token joins the inviting organization.
  registerHooks.push(async (user, ctx) => {
    await organizations.onRegistered(user, ctx.invitationToken);
  });
  const workspaces = workspacesService({ repo: workspacesRepository(db), orgs: organizations, users: auth, notifications });
  // Documents in: one job queue (pg-boss) per app, one embedder shared by
  // ingestion and retrieval; workspace stats count the data sources' documents.
  const jobs = createJobQueue({ database, workers: config.workers, pollIntervalSec: config.jobsPollIntervalSec, log: deps.log });
  const embedder = createEmbedder(config.embeddings);
  // Uploaded files are parsed in worker threads with a time and memory budget (docs/data-sources.md).
  const parser = createParsePool({ size: config.ingest.parseWorkers, timeoutMs: config.ingest.parseTimeoutMs, memoryMb: config.ingest.parseMemoryMb });
  const retrieval = retrievalService({ db, embedder, exactKnnMax: config.rag.exactKnnMax });
  // A workspace past the exact-kNN threshold gets an HNSW graph of its own chunks after an ingestion (src/rag/graphs.ts).
  const graphs = workspaceGraphs({ database, threshold: config.rag.exactKnnMax, log: deps.log });
  workspaces.onDeleted((w) => graphs.drop(w.id));
  // Document metadata (docs/inventory.md): proposed from the text after each ingestion, editable; expiry notices.
  const documentMetadata = documentMetadataService({
    repo: documentMetadataRepository(db),
    notifications,
    mailer,
    members: (workspaceId) => workspaces.memberUserIds(workspaceId),
    users: auth,
    publicUrl: config.publicUrl,
    log: deps.log,
  });
  const afterIndexed = async (workspaceId: string) => {
    await graphs.ensure(workspaceId);
    try {
      await documentMetadata.proposeFor(workspaceId);
    } catch (err) {
      deps.log?.warn({ err, workspaceId }, 'document metadata not proposed');
    }
  };
  const dataSources = dataSourcesService({
    repo: dataSourcesRepository(db, { commitRowsPerTransaction: database.kind === 'pglite' ? config.ingest.pgliteCommitRows : undefined }),
    jobs,
    embedder,
    parser,
    config,
    compliance,
    notifications,
    afterIndexed,
    log: deps.log,
  });
  workspaces.addStatsProvider((workspaceId) => dataSources.statsFor(workspaceId));
  workspaces.addSyncStateProvider((ids) => dataSources.syncCounts(ids));
  const conversations = conversationsService(conversationsRepository(db), { publicUrl: config.publicUrl });
  const analytics = analyticsService(analyticsRepository(db), { usersByIds: (ids) => auth.usersByIds(ids), log: deps.log });
  // Answers (docs/rag.md): retrieval -> generator -> validation -> conversation + query log.
  // Judgement questions are read by the obligation engine of the assessments (src/compliance).
  let obligationTexts: Promise<Map<number, string[]>> | null = null;
  const judgement = judgementService({
    repo: ragRepository(db),
    embedder,
    chunking: { size: config.ingest.chunkSize, overlap: config.ingest.chunkOverlap },
    doraText: async (o) => {
      obligationTexts ??= compliance
        .articles({})
        .then(({ articles }) => new Map(articles.map((a) => [Number(a.article.replace(/\D+/g, '')), a.obligations])))
        .catch((err) => {
          obligationTexts = null;
          throw err;
        });
      return (await obligationTexts).get(o.article)?.find((t) => t.includes(o.dora.match)) ?? '';
    },
    vendorNames: async (workspaceId) => {
      const ws = await workspaces.get(workspaceId);
      const profile = ws?.vendorProfile as { legalName?: string } | undefined;
      return vendorNamesOf(ws?.workspaceName, profile?.legalName);
    },
  });
  const rag = ragService({ retrieval, generator: createGenerator(config), conversations, analytics, config: config.rag, judgement });
  // Evaluation (docs/evaluation.md): the external service when RAGAS_URL is set, else
  // built-in metrics; `questions` are answered by the answer service exactly as POST /rag.
  const evaluation = evaluationService({
    embedder,
    external: config.ragas.url ? { url: config.ragas.url, apiKey: config.ragas.apiKey, timeoutMs: config.ragas.timeoutMs } : undefined,
    ask: async (owner, question) => {
      const prepared = await rag.prepare(owner, 'rag', { question }, performance.now());
      const a = await rag.answer(prepared, { streamed: false });
      return { answer: a.answer, contexts: a.sources.map((s) => s.content), conversationId: a.conversationId };
    },
  });
  // Questionnaires (docs/questionnaires.md); `latestComplete` feeds the register export.
  const questionnaires = questionnairesService({
    repo: questionnairesRepository(db),
    mailer,
    config,
    retrieval: () => retrieval,
    // Vendor claims are checked by the obligation engine's reading of the workspace's documents.
    obligationResults: (workspaceId) => judgement.obligationResults(workspaceId),
    requesterName: async (workspaceId) => {
      const ws = await workspaces.get(workspaceId);
      const [member] = ws ? await organizations.membersOf(ws.organizationId) : [];
      return member ? (await organizations.mine(member.userId)).name : null;
    },
  });
  // A vendor submitted its answers: everyone with access to the workspace hears of it.
  questionnaires.onSubmitted((e) =>
    notifications.notifyQuietly({
      workspaceId: e.workspaceId,
      type: 'questionnaire_answered',
      title: `Questionnaire answered: ${e.title}`.slice(0, 200),
      body: 'The vendor submitted its answers; they are ready for review.',
      data: { questionnaireId: e.questionnaireId, submittedAt: e.submittedAt.toISOString() },
    }),
  );
  // Assessments (docs/assessments.md): uploaded vendor documents, gap analysis as a job; Claude reads
  // the clauses when the answers use it (ANTHROPIC_API_KEY), its quotes checked; the offline reading otherwise.
  const a = config.rag.anthropic;
  const useModel = config.rag.generator === 'anthropic' || (config.rag.generator === 'auto' && !!a.apiKey);
  const modelOptions = { apiKey: a.apiKey, baseURL: a.baseUrl, model: a.model, maxTokens: a.maxTokens, timeoutMs: a.timeoutMs, maxRetries: a.maxRetries };
  const assessments = assessmentsService({
    repo: assessmentsRepository(db),
    compliance,
    workspaces,
    dataSources,
    embedder,
    judge: useModel && a.apiKey ? anthropicJudge({ ...modelOptions, apiKey: a.apiKey, maxTokens: Math.max(a.maxTokens, 4096) }) : undefined,
    parser,
    config,
    jobs,
    log: deps.log,
    notifications,
    // Bound late: the concentration service is built on the register below.
    concentration: { impact: (userId, workspaceId) => concentration.impact(userId, workspaceId) },
  });
  // Register of Information (docs/register-of-information.md): workbook, xBRL-CSV package, pre-flight.
  const registerRepo = registerRepository(db);
  const register = registerService({
    workspaces,
    assessments,
    questionnaires,
    records: registerRecords({ repo: registerRepo, organizations, config }),
    defaultLicensedActivity: config.roi.licensedActivity,
    // Bound late: the concentration service reads the register's vendors.
    concentration: (userId, vendors, functions, now) => concentration.forRegister(userId, vendors, functions, now),
  });
  // Concentration risk across the portfolio (docs/concentration.md), over the register's vendors and functions.
  const concentration = concentrationService({ repo: concentrationRepository(db), register });
  // A vendor's contracts as records (create, change, end), unique references across the organization.
  const contracts = contractsService({ workspaces, functionIds: async (orgId) => new Set((await registerRepo.functions(orgId)).map((f) => f.id)) });
  // Register drafting (docs/register-drafting.md): profile fields from the workspace's documents, as a job;
  // Claude reads the passages when the answers use it (ANTHROPIC_API_KEY), the offline rules otherwise.
  const profileDrafts = profileDraftsService({
    repo: profileDraftsRepository(db),
    workspaces,
    contracts,
    retrieval,
    chunks: ragRepository(db),
    model: useModel && a.apiKey ? anthropicExtractor({ ...modelOptions, apiKey: a.apiKey }) : null,
    jobs,
    notifications,
    log: deps.log,
  });
  // The vendor portfolio (docs/analytics.md): tiers, latest assessment and questionnaire scores.
  const portfolio = portfolioService({
    workspaces,
    assessments,
    questionnaires,
    exits: async (userId) => {
      const { exits } = await concentration.portfolio(userId, { view: 'table', limit: 1 });
      return {
        criticalFunctionsWithoutAlternative: exits.criticalFunctionsWithoutAlternative.length,
        criticalVendorsWithoutTestedExit: exits.criticalVendorsWithoutTestedExit.length,
        concentratedAlternatives: exits.concentratedAlternatives.length,
      };
    },
  });
  // MCP sources (docs/mcp-sources.md): resources go through the same pipeline and document store as data sources.
  const mcpSources = mcpSourcesService({
    repo: mcpSourcesRepository(db),
    config,
    queue: jobs,
    store: dataSources,
    embedder,
    parser,
    notifications,
    afterIndexed,
    log: deps.log,
  });
  workspaces.addSyncStateProvider((ids) => mcpSources.syncCounts(ids));
  // Scheduled syncs (docs/sync-schedule.md): every data source and MCP source of a due workspace, once across instances.
  const syncSchedule = syncScheduleService({
    repo: syncScheduleRepository(db),
    workspaces,
    targets: () => [dataSourcesTarget(dataSources), mcpSourcesTarget(mcpSources)],
    log: deps.log,
  });
  // GET /sync-status (docs/sync-status.md): the sync state of a workspace in one read.
  const syncStatus = syncStatusService({ dataSources, mcpSources, workspaces, schedule: syncSchedule, schedulerIntervalSec: config.syncSchedulerIntervalSec });
  // Idempotency-Key records (docs/api-conventions.md, "Retries").
  const idempotency = idempotencyService(idempotencyRepository(db));
  // Organization API keys for systems (docs/api-keys.md).
  const apiKeys = apiKeysService({ repo: apiKeysRepository(db), organizations, workspaces, usersByIds: (ids) => auth.usersByIds(ids), log: deps.log });
  return {
    auth,
    apiKeys,
    idempotency,
    compliance,
    organizations,
    workspaces,
    conversations,
    analytics,
    rag,
    evaluation,
    notifications,
    questionnaires,
    jobs,
    embedder,
    parser,
    retrieval,
    graphs,
    dataSources,
    assessments,
    register,
    contracts,
    concentration,
    profileDrafts,
    portfolio,
    mcpSources,
    syncSchedule,
    syncStatus,
    documentMetadata,
    registerHooks,
  };
}
export type Services = ReturnType<typeof createServices>;
