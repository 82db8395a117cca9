import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ok } from '../../lib/envelope.js';
import { requestAccess, requestScope } from '../../plugins/workspace.js';
import { parseSort } from '../../domain/paging.js';
import type { PortfolioService } from './portfolio.js';
import {
  KpisResponse,
  PortfolioQuery,
  PortfolioResponse,
  QueriesQuery,
  QueriesResponse,
  SourcesQuery,
  SourcesResponse,
  UsageQuery,
  UsageResponse,
} from './schemas.js';
import type { AnalyticsService } from './service.js';

const tags = ['analytics'];

/** Query analytics of a workspace and the organization's vendor portfolio (docs/analytics.md). */
const routes: FastifyPluginAsyncTypebox<{ service: AnalyticsService; portfolio: PortfolioService }> = async (app, { service, portfolio }) => {
  app.get(
    '/analytics/portfolio',
    {
      schema: {
        operationId: 'getPortfolio',
        tags,
        summary:
          'Vendor portfolio of the organization: every accessible vendor with its tier, latest completed assessment (score, risk rating) and questionnaire score; counts by risk rating',
        querystring: PortfolioQuery,
        response: { 200: PortfolioResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { page, limit, sort } = request.query;
      return ok(await portfolio.portfolio(request.auth!.id, { page, limit, ...parseSort(sort) }));
    },
  );

  app.get(
    '/analytics/kpis',
    {
      schema: {
        operationId: 'getPortfolioKpis',
        tags,
        summary:
          'Portfolio KPIs over every accessible vendor: contracts expiring within 30/90 days, reviews overdue and due, critical vendors without an exit strategy or a signed-off assessment, questionnaires outstanding and overdue; each with the inventory query of the vendors it counts',
        response: { 200: KpisResponse, ...errorResponses },
      },
    },
    async (request) => ok(await portfolio.kpis(request.auth!.id)),
  );

  app.get(
    '/analytics/queries',
    {
      config: { workspace: true },
      schema: {
        operationId: 'listLoggedQueries',
        tags,
        summary: 'Logged questions, newest first',
        querystring: QueriesQuery,
        response: { 200: QueriesResponse, ...errorResponses },
      },
    },
    async (request) => ok(await service.queries(requestScope(request), requestAccess(request).role, request.query)),
  );

  app.get(
    '/analytics/usage',
    {
      config: { workspace: true },
      schema: {
        operationId: 'getUsage',
        tags,
        summary: 'Usage statistics: totals, per day, per endpoint, generator and user',
        querystring: UsageQuery,
        response: { 200: UsageResponse, ...errorResponses },
      },
    },
    async (request) => ok(await service.usage(requestScope(request), requestAccess(request).role, request.query)),
  );

  app.get(
    '/analytics/sources',
    {
      config: { workspace: true },
      schema: {
        operationId: 'listSourceUsage',
        tags,
        summary: 'Documents behind retrieved sources: how often retrieved and cited',
        querystring: SourcesQuery,
        response: { 200: SourcesResponse, ...errorResponses },
      },
    },
    async (request) => ok(await service.sources(requestScope(request), requestAccess(request).role, request.query)),
  );
};

export default routes;
