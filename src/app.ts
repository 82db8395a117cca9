import { randomBytes, randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { sql, type Database } from './db/client.js';
import { AppError } from './lib/errors.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { errorSerializer, requestSerializer } from './lib/redact.js';
import authRoutes from './modules/auth/routes.js';
import apiKeyRoutes from './modules/api-keys/routes.js';
import complianceRoutes from './modules/compliance/routes.js';
import analyticsRoutes from './modules/analytics/routes.js';
import conversationRoutes from './modules/conversations/routes.js';
import ragRoutes from './modules/rag/routes.js';
import healthRoutes from './modules/health/routes.js';
import notificationRoutes from './modules/notifications/routes.js';
import evaluationRoutes from './modules/evaluation/routes.js';
import organizationRoutes from './modules/organizations/routes.js';
import workspaceRoutes from './modules/workspaces/routes.js';
import dataSourceRoutes from './modules/data-sources/routes.js';
import mcpSourceRoutes from './modules/mcp-sources/routes.js';
import questionnaireRoutes from './modules/questionnaires/routes.js';
import assessmentRoutes from './modules/assessments/routes.js';
import registerRoutes from './modules/register/routes.js';
import contractRoutes from './modules/contracts/routes.js';
import concentrationRoutes from './modules/concentration/routes.js';
import documentMetadataRoutes from './modules/document-metadata/routes.js';
import profileDraftRoutes from './modules/profile-drafts/routes.js';
import authPlugin from './plugins/auth.js';
import csrfPlugin from './plugins/csrf.js';
import dashboardPlugin from './plugins/dashboard.js';
import errorsPlugin from './plugins/errors.js';
import idempotencyPlugin from './plugins/idempotency.js';
import multipartPlugin from './plugins/multipart.js';
import rateLimitPlugin from './plugins/rateLimits.js';
import routeGuards, { API_PREFIX } from './plugins/routeGuards.js';
import workspacePlugin from './plugins/workspace.js';
import { createServices, type Services } from './services.js';
import { OPENAPI_TAGS, openapiTransform } from './plugins/openapi.js';
import syncStatusRoutes from './modules/sync-status/routes.js';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  redis?: Redis;
  /** Where the log goes (default stdout); tests read it. */
  logStream?: { write(line: string): void };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: Config;
    mailer: Mailer;
    database: Database;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP application on a database; the process entry and the tests both call it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      // Vendor questionnaire links carry their token in the URL: never log it. Errors of
      // failed statements are logged without their parameters (docs/reliability.md).
      serializers: { req: requestSerializer, err: errorSerializer },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    trustProxy: process.env.TRUST_PROXY === 'true',
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false, useDefaults: true, allowUnionTypes: true } },
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  const services = createServices({ config, database, mailer, signAccessToken: (id) => app.issueAccessToken(id), log: app.log });
  app.decorate('services', services);
  app.decorate('config', config);
  app.decorate('mailer', mailer);
  app.decorate('database', database);

  // An empty body sent with `Content-Type: application/json` is no body (clients that set
  // the header on every call must be able to log out, refresh, delete...); anything else
  // goes through Fastify's own JSON parser (prototype-poisoning checks included).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
  // A request without a body is validated as an empty object, so that a missing
  // required field is reported by name ("question: is required").
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
  });
  // Ajv coerces a query value such as `1e309` to Infinity and then skips `minimum` and
  // `maximum`: refuse non-finite numbers in the query string and path, naming the field.
  app.addHook('preHandler', async (request) => {
    const schema = request.routeOptions.schema as { querystring?: { properties?: Record<string, { maximum?: number }> } } | undefined;
    const details: string[] = [];
    for (const part of [request.query, request.params]) {
      if (!part || typeof part !== 'object') continue;
      for (const [field, value] of Object.entries(part as Record<string, unknown>)) {
        if (typeof value !== 'number' || Number.isFinite(value)) continue;
        const max = schema?.querystring?.properties?.[field]?.maximum;
        details.push(`${field}: ${max !== undefined && value > 0 ? `must be <= ${max}` : 'must be a finite number'}`);
      }
    }
    if (details.length) throw new AppError(400, 'VALIDATION_ERROR', `Validation failed: ${details.join('; ')}`, details);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });

  await app.register(errorsPlugin);
  await app.register(cors, {
    origin: config.corsOrigins,
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Workspace-Id', 'X-Requested-With', 'Last-Event-ID', 'Idempotency-Key'],
    exposedHeaders: [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'Content-Disposition',
      'Idempotent-Replayed',
    ],
  });
  await app.register(authPlugin, {
    // Without a configured secret (tests, tools) every app signs with a random one of its own.
    secret: config.jwtSecret ?? randomBytes(48).toString('base64url'),
    accessTokenTtlSec: config.accessTokenTtlSec,
    // An unknown user identifies nobody (401); a database error is not a verdict on the
    // token and goes to the error handler (503 when the database is unreachable).
    loadUser: async (id) => {
      const u = await services.auth.requestUser(id);
      return u && { id: u.id, email: u.email, name: u.name, role: u.role, status: u.status };
    },
    // Organization API keys (`Authorization: Bearer dora_sk_...`, docs/api-keys.md).
    loadApiKey: (secret) => services.apiKeys.authenticate(secret),
  });
  await app.register(csrfPlugin, { trustedOrigins: [...config.corsOrigins, config.publicUrl] });
  await app.register(rateLimitPlugin, { limits: config.rateLimits, redis: deps.redis });
  await app.register(routeGuards);
  await app.register(multipartPlugin, { maxFileBytes: config.ingest.maxFileBytes, maxFiles: config.ingest.maxFiles });
  await app.register(workspacePlugin, { service: services.workspaces });
  await app.register(idempotencyPlugin, { service: services.idempotency });

  if (config.openapi) {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'DORA Vendor Service API',
          version: '1.0.0',
          description: 'Vendor document Q&A, DORA compliance reference, assessments, questionnaires and the Register of Information.',
          license: { name: 'Proprietary' },
        },
        // Paths carry their /api/v1 prefix: the server is the service's public origin.
        servers: [{ url: config.publicUrl, description: 'This service (PUBLIC_URL)' }],
        tags: OPENAPI_TAGS,
        components: {
          securitySchemes: {
            bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            cookieAuth: { type: 'apiKey', in: 'cookie', name: 'accessToken' },
          },
        },
        security: [{ bearerAuth: [] }, { cookieAuth: [] }],
      },
      transform: openapiTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  }

  await app.register(healthRoutes, {
    ping: async () => {
      await database.db.execute(sql`select 1`);
    },
    queryLog: () => services.analytics.queryLogStats(),
  });
  await app.register(
    async (api) => {
      await api.register(authRoutes, {
        service: services.auth,
        cookieSecure: config.cookieSecure,
        accessTokenTtlSec: config.accessTokenTtlSec,
        refreshTokenTtlSec: config.refreshTokenTtlSec,
      });
      await api.register(complianceRoutes, { service: services.compliance });
      await api.register(organizationRoutes, { service: services.organizations });
      await api.register(apiKeyRoutes, { service: services.apiKeys });
      await api.register(workspaceRoutes, { service: services.workspaces });
      await api.register(dataSourceRoutes, { service: services.dataSources, ingest: config.ingest });
      await api.register(documentMetadataRoutes, { service: services.documentMetadata });
      await api.register(mcpSourceRoutes, { service: services.mcpSources });
      await api.register(syncStatusRoutes, { service: services.syncStatus });
      await api.register(questionnaireRoutes, { service: services.questionnaires });
      await api.register(assessmentRoutes, { service: services.assessments, ingest: config.ingest });
      await api.register(registerRoutes, { service: services.register });
      await api.register(contractRoutes, { service: services.contracts });
      await api.register(concentrationRoutes, { service: services.concentration });
      await api.register(profileDraftRoutes, { service: services.profileDrafts });
      await api.register(conversationRoutes, { service: services.conversations });
      await api.register(analyticsRoutes, { service: services.analytics, portfolio: services.portfolio });
      await api.register(ragRoutes, { service: services.rag });
      await api.register(notificationRoutes, { service: services.notifications, heartbeatMs: config.notifications.heartbeatMs });
      await api.register(evaluationRoutes, { service: services.evaluation });
    },
    { prefix: API_PREFIX },
  );

  // The browser dashboard (web/, built to static files) at `/` (docs/dashboard.md).
  if (config.dashboardDir) await app.register(dashboardPlugin, { dir: config.dashboardDir });

  // Open notification streams end before the server stops accepting (else close() would wait for them).
  app.addHook('preClose', async () => {
    await services.notifications.close();
  });
  app.addHook('onClose', async () => {
    await services.auth.settled();
    await services.apiKeys.settled();
    await services.analytics.settled();
    if (!deps.mailer) mailer.close();
  });
  // Background jobs (pg-boss): started with the app, stopped when it closes (running
  // jobs finish or are retried later); WORKERS=0 queues jobs without running them.
  await services.jobs.start();
  app.addHook('onClose', async () => {
    await services.jobs.stop(config.shutdownGraceMs);
  });
  // Scheduled syncs (docs/sync-schedule.md): instances that run workers look for due workspaces.
  if (config.workers > 0) services.syncSchedule.start(config.syncSchedulerIntervalSec);
  // Ingestions whose worker died are taken over (docs/data-sources.md, "Interrupted ingestion").
  if (config.workers > 0) services.dataSources.startRecovery();
  // Large workspaces without a graph of their own get one (src/rag/graphs.ts).
  if (config.workers > 0) services.graphs.start();
  // Documents expiring within 30 days (or expired) are told to the vendor's owner once per expiry date (docs/inventory.md).
  if (config.workers > 0) services.documentMetadata.start(config.syncSchedulerIntervalSec);
  app.addHook('onClose', async () => {
    await services.documentMetadata.stop();
    await services.syncSchedule.stop();
    await services.dataSources.stopRecovery();
    await services.graphs.stop();
    await services.mcpSources.close();
    await services.parser.close();
  });
  return app;
}
