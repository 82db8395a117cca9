import { Type } from 'typebox';
import { RISK_RATINGS } from '../../db/schema/assessments.js';
import { pageQuery, PaginationSchema, sortQuery } from '../../domain/paging.js';
import { LoggedSourceSchema } from '../../domain/sources.js';
import { Envelope, Nullable } from '../../lib/envelope.js';
import { PORTFOLIO_SORTS } from './portfolio.js';

const NumOrNull = Nullable(Type.Number());
const UserRef = Nullable(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }));
/** Checked once, by the service (parseRange), which names the field and the forms it takes. */
const DateParam = Type.String({ maxLength: 40, description: 'YYYY-MM-DD (a `to` date includes that day) or an ISO 8601 date-time' });
const RangeQuery = {
  from: Type.Optional(DateParam),
  to: Type.Optional(DateParam),
  userId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'owners and admins: one member only' })),
};
const Paging = {
  ...pageQuery(),
};
const Pagination = PaginationSchema;
const RangeOut = Type.Object({ from: Type.String(), to: Type.String() });
const ScopeOut = Type.Enum(['workspace', 'user']);

const QueryRecord = Type.Object({
  id: Type.String(),
  user: UserRef,
  apiKeyId: Nullable(Type.String({ description: 'The organization API key the question came with (docs/api-keys.md); null for a person' })),
  conversationId: Nullable(Type.String()),
  endpoint: Type.String(),
  question: Type.String(),
  status: Type.String(),
  errorCode: Nullable(Type.String()),
  generator: Type.String(),
  model: Nullable(Type.String()),
  latencyMs: Type.Number(),
  firstChunkMs: NumOrNull,
  confidence: NumOrNull,
  isGrounded: Nullable(Type.Boolean()),
  hasHallucinations: Nullable(Type.Boolean()),
  isRelevant: Nullable(Type.Boolean()),
  sourceCount: Type.Number(),
  citedCount: Type.Number(),
  sources: Type.Array(LoggedSourceSchema),
  inputTokens: NumOrNull,
  outputTokens: NumOrNull,
  createdAt: Type.String(),
});

const Totals = Type.Object({
  queries: Type.Number(),
  answered: Type.Number({ description: 'an answer was produced (status `answered`), a refusal included' }),
  unanswered: Type.Number({ description: 'not answered from the sources: what GET /analytics/queries?unanswered=true lists' }),
  failed: Type.Number(),
  aborted: Type.Number(),
  users: Type.Number(),
  conversations: Type.Number(),
  avgLatencyMs: NumOrNull,
  p50LatencyMs: NumOrNull,
  p95LatencyMs: NumOrNull,
  avgFirstChunkMs: NumOrNull,
  avgConfidence: NumOrNull,
  groundedRate: NumOrNull,
  hallucinationRate: NumOrNull,
  relevantRate: NumOrNull,
  inputTokens: Type.Number(),
  outputTokens: Type.Number(),
});

const PortfolioVendor = Type.Object({
  workspaceId: Type.String(),
  workspaceSlug: Type.String(),
  name: Type.String(),
  criticalityTier: Nullable(Type.String()),
  supportsCriticalFunction: Nullable(Type.Boolean()),
  nextReviewDate: Nullable(Type.String()),
  assessment: Nullable(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      score: NumOrNull,
      riskRating: Nullable(Type.Enum([...RISK_RATINGS])),
      completedAt: Type.String(),
      covered: NumOrNull,
      partial: NumOrNull,
      missing: NumOrNull,
    }),
  ),
  questionnaire: Nullable(Type.Object({ id: Type.String(), title: Type.String(), score: NumOrNull, completedAt: Type.String() })),
});

/** GET /analytics/portfolio (a portfolio is read whole by a dashboard: the default page is the largest, 100 vendors) */
export const PortfolioQuery = Type.Object(
  { ...pageQuery({ defaultLimit: 100 }), sort: sortQuery(PORTFOLIO_SORTS, 'createdAt') },
  { additionalProperties: false },
);
export const PortfolioResponse = Envelope(
  Type.Object({
    vendors: Type.Array(PortfolioVendor),
    byRisk: Type.Object({ critical: Type.Integer(), high: Type.Integer(), medium: Type.Integer(), low: Type.Integer(), notAssessed: Type.Integer() }),
    pagination: PaginationSchema,
  }),
);

/** GET /analytics/queries */
export const QueriesQuery = Type.Object(
  {
    ...RangeQuery,
    ...Paging,
    status: Type.Optional(Type.Enum(['answered', 'failed', 'aborted'])),
    unanswered: Type.Optional(
      Type.Boolean({ description: 'only questions not answered from the sources: failed or aborted, or answered without a cited or relevant source' }),
    ),
  },
  { additionalProperties: false },
);
export const QueriesResponse = Envelope(Type.Object({ range: RangeOut, scope: ScopeOut, queries: Type.Array(QueryRecord), pagination: Pagination }));

/** GET /analytics/usage */
export const UsageQuery = Type.Object(RangeQuery, { additionalProperties: false });
export const UsageResponse = Envelope(
  Type.Object({
    range: RangeOut,
    scope: ScopeOut,
    totals: Totals,
    daily: Type.Array(
      Type.Object({
        date: Type.String(),
        queries: Type.Number(),
        answered: Type.Number(),
        unanswered: Type.Number(),
        users: Type.Number(),
        avgLatencyMs: NumOrNull,
        avgConfidence: NumOrNull,
      }),
    ),
    byEndpoint: Type.Array(Type.Object({ endpoint: Type.String(), queries: Type.Number(), avgLatencyMs: NumOrNull })),
    byGenerator: Type.Array(Type.Object({ generator: Type.String(), queries: Type.Number(), avgLatencyMs: NumOrNull })),
    byUser: Type.Array(Type.Object({ user: UserRef, queries: Type.Number(), avgLatencyMs: NumOrNull })),
  }),
);

/** GET /analytics/sources */
export const SourcesQuery = Type.Object({ ...RangeQuery, ...Paging }, { additionalProperties: false });
export const SourcesResponse = Envelope(
  Type.Object({
    range: RangeOut,
    scope: ScopeOut,
    totals: Type.Object({ documents: Type.Number(), retrievals: Type.Number(), citations: Type.Number() }),
    sources: Type.Array(
      Type.Object({
        documentId: Type.String(),
        dataSourceId: Nullable(Type.String()),
        title: Type.String(),
        url: Type.String(),
        retrievedCount: Type.Number(),
        citedCount: Type.Number(),
        queryCount: Type.Number(),
        avgScore: NumOrNull,
        lastRetrievedAt: Type.String(),
      }),
    ),
    pagination: Pagination,
  }),
);

/** GET /analytics/kpis (docs/inventory.md, "KPIs") */
export const KpisResponse = Envelope(
  Type.Object({
    asOf: Type.String({ description: 'The day the figures are counted on (YYYY-MM-DD, UTC)' }),
    vendors: Type.Integer({ description: 'Vendors the caller can access' }),
    questionnairesOutstanding: Type.Integer({ description: 'Questionnaires sent and not complete' }),
    questionnairesOverdue: Type.Integer({ description: 'Outstanding questionnaires past their due date' }),
    kpis: Type.Array(
      Type.Object({
        key: Type.String(),
        label: Type.String(),
        value: Type.Integer({ description: 'Vendors counted' }),
        query: Type.String({ description: 'The GET /workspaces query (and the inventory page query) listing the vendors counted' }),
      }),
    ),
    exits: Type.Union(
      [
        Type.Object({
          criticalFunctionsWithoutAlternative: Type.Integer({
            description: 'Critical or important functions none of whose vendors names an alternative provider (Art. 28(8))',
          }),
          criticalVendorsWithoutTestedExit: Type.Integer({ description: 'Critical vendors with no exit plan, or one never tested (profile)' }),
          concentratedAlternatives: Type.Integer({ description: 'Alternatives that depend on the same provider as the vendor they would replace' }),
        }),
        Type.Null(),
      ],
      { description: 'Substitutability and exit across the portfolio, as the concentration page lists them (GET /concentration `exits`)' },
    ),
  }),
);
