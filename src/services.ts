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
import { conversationsRepository } from './modules/conversations/repository.js';
import { conversationsService } from './modules/conversations/service.js';
import { createNotificationBus } from './modules/notifications/bus.js';
import { dataSourcesRepository } from './modules/data-sources/repository.js';
import { dataSourcesService } from './modules/data-sources/service.js';
import { createJobQueue } from './jobs/queue.js';
import { createEmbedder } from './rag/embedders/index.js';
import { retrievalService } from './rag/retrieval.js';
import { notificationsRepository } from './modules/notifications/repository.js';
import { notificationsService } from './modules/notifications/service.js';

/**
 * The composition root: every service, wired once. Modules reach each other through
 * these services, never through another module's tables.
 */
export interface ServiceLog {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export function createServices(deps: { config: Config; database: Database; mailer: Mailer; signAccessToken(userId: string): string; log?: ServiceLog }) {
  const { config, database, mailer } = deps;
  const db = database.db;
  const registerHooks: RegisterHook[] = [];
  const auth = authService({ repo: authRepository(db), mailer, config, signAccessToken: deps.signAccessToken, onRegistered: registerHooks });
  const compliance = complianceService(complianceRepository(db));
  // Created early so that every other service can notify; a workspace's recipients come
  // from the workspaces service (resolved when a notification is sent).
  const notifications = notificationsService({
    repo: notificationsRepository(db),
    workspaceMembers: (workspaceId) => workspaces.memberUserIds(workspaceId),
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
  // Documents in (issue 4): one job queue (pg-boss) per app, one embedder shared by
  // ingestion and retrieval; workspace stats count the data sources' documents.
  const jobs = createJobQueue({ database, workers: config.workers, pollIntervalSec: config.jobsPollIntervalSec, log: deps.log });
  const embedder = createEmbedder(config.embeddings);
  const retrieval = retrievalService({ db, embedder });
  const dataSources = dataSourcesService({ repo: dataSourcesRepository(db), jobs, embedder, config, compliance, log: deps.log });
  workspaces.addStatsProvider((workspaceId) => dataSources.statsFor(workspaceId));
  const conversations = conversationsService(conversationsRepository(db));
  const analytics = analyticsService(analyticsRepository(db), { usersByIds: (ids) => auth.usersByIds(ids) });
  // Questionnaires (docs/questionnaires.md); `latestComplete` feeds the register export.
  const questionnaires = questionnairesService({
    repo: questionnairesRepository(db),
    mailer,
    config,
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
  return { auth, compliance, organizations, workspaces, conversations, analytics, notifications, questionnaires, jobs, embedder, retrieval, dataSources, registerHooks };
}
export type Services = ReturnType<typeof createServices>;
