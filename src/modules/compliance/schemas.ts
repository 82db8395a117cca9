import { Type } from 'typebox';
import { DORA_CHAPTERS, DORA_DOMAINS } from '../../compliance/dora.js';
import { Envelope, errorResponses } from '../../lib/envelope.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

/** Request and response schemas of the DORA reference data: one named schema per route (routes.ts). */

const ArticleSummary = Type.Object({
  regulation: Type.String(),
  article: Type.String(),
  title: Type.String(),
  domain: Type.String(),
  chapter: Type.String(),
  obligations: Type.Array(Type.String()),
});
const ArticleFull = Type.Object({ ...ArticleSummary.properties, number: Type.Number(), text: Type.String() });
/** Reference lists page like every list, with a default page that holds the whole set (45 articles). */
const REFERENCE_PAGE = pageQuery({ defaultLimit: 50 });

export const listDomains = {
  operationId: 'listDoraDomains',
  tags: ['compliance'],
  summary: 'The 7 DORA domains with their articles',
  querystring: Type.Object(REFERENCE_PAGE, { additionalProperties: false }),
  response: {
    200: Envelope(
      Type.Object({
        total: Type.Number(),
        pagination: PaginationSchema,
        domains: Type.Array(Type.Object({ domain: Type.String(), chapter: Type.String(), articleCount: Type.Number(), articles: Type.Array(Type.String()) })),
      }),
    ),
    ...errorResponses,
  },
};

export const listArticles = {
  operationId: 'listDoraArticles',
  tags: ['compliance'],
  summary: 'DORA articles (without text), filtered by domain and/or chapter',
  querystring: Type.Object(
    {
      domain: Type.Optional(Type.Enum(DORA_DOMAINS.map((d) => d.domain))),
      chapter: Type.Optional(Type.Enum([...DORA_CHAPTERS])),
      ...REFERENCE_PAGE,
    },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(Type.Object({ total: Type.Number(), articles: Type.Array(ArticleSummary), pagination: PaginationSchema })), ...errorResponses },
};

export const getArticle = {
  operationId: 'getDoraArticle',
  tags: ['compliance'],
  summary: 'One DORA article with its full text (`Article%2028` or `Article-28`)',
  params: Type.Object({ article: Type.String({ minLength: 1, maxLength: 100 }) }),
  response: { 200: Envelope(Type.Object({ article: ArticleFull })), ...errorResponses },
};
