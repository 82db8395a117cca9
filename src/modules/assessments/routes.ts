import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestScope } from '../../plugins/workspace.js';
import { Type } from 'typebox';
import { GAP_STATUSES } from '../../domain/gap.js';
import type { Config } from '../../config.js';
import { ASSESSMENT_STATUSES, RISK_RATINGS } from '../../db/schema/assessments.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { readMultipart } from '../../plugins/multipart.js';
import { Envelope, ErrorEnvelope, MessageEnvelope, errorResponses, ok, okMessage } from '../../lib/envelope.js';
import { SORT_FIELDS } from './repository.js';
import type { AssessmentsService, IncomingFile } from './service.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Summary = Type.Object({
  obligations: Type.Integer(),
  covered: Type.Integer(),
  partial: Type.Integer(),
  missing: Type.Integer(),
  documents: Type.Integer(),
  sentences: Type.Integer(),
  missingKey: Type.Array(Type.String()),
  riskReasons: Type.Array(Type.String()),
  embedder: Nullable(Type.String()),
});
const DocumentOut = Type.Object({
  id: Type.String(),
  filename: Type.String(),
  format: Type.String(),
  mimeType: Type.String(),
  sizeBytes: Type.Integer(),
  pageCount: Type.Integer(),
  title: Nullable(Type.String()),
  characters: Type.Integer(),
});
const AssessmentBase = {
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  framework: Type.String(),
  status: Type.Enum([...ASSESSMENT_STATUSES]),
  score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  riskRating: Nullable(Type.Enum([...RISK_RATINGS])),
  summary: Nullable(Summary),
  error: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  startedAt: Nullable(Type.String()),
  completedAt: Nullable(Type.String()),
};
const Evidence = Type.Object({
  documentId: Type.String(),
  filename: Type.String(),
  documentTitle: Nullable(Type.String()),
  section: Type.String(),
  page: Type.Optional(Type.Integer()),
  quote: Type.String(),
  truncated: Type.Boolean(),
  element: Type.String(),
  relevance: Type.Number(),
});
const GapResultOut = Type.Object({
  obligationId: Type.String(),
  article: Type.String(),
  ref: Type.String(),
  title: Type.String(),
  requirement: Type.String(),
  doraText: Type.String(),
  status: Type.Enum([...GAP_STATUSES]),
  coverage: Type.Number(),
  weight: Type.Integer(),
  key: Type.Boolean(),
  elements: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), satisfied: Type.Boolean() })),
  evidence: Type.Array(Evidence),
  rationale: Type.String(),
});
const AssessmentListItem = Type.Object(AssessmentBase);
const AssessmentCreated = Type.Object({ ...AssessmentBase, documents: Type.Array(DocumentOut) });
const AssessmentDetail = Type.Object({ ...AssessmentBase, documents: Type.Array(DocumentOut), results: Type.Array(GapResultOut) });
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const SORTS = Object.keys(SORT_FIELDS).flatMap((f) => [f, `-${f}`]);

const MultipartBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200, description: 'Name of the assessment (default: "DORA assessment of <vendor> (<date>)")' })),
  files: Type.Optional(Type.Array(Type.String({ format: 'binary' }), { description: 'Vendor documents: PDF, DOCX, XLSX, HTML, Markdown, text or JSON' })),
  sourceFileId: Type.Optional(Type.Array(Type.String(), { description: 'Files already uploaded to the workspace (ids of data source files, repeatable) to analyse as well' })),
});
const JsonBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  sourceFileIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'Files already uploaded to the workspace (ids of data source files)' }),
}, { additionalProperties: false });
const DocParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), documentId: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * The /assessments group (docs/assessments.md). Workspace-scoped (X-Workspace-Id):
 * listing needs `canQuery`; the detail and the report quote the vendor's documents and
 * need `canViewSources`; creating and deleting need `canManageSync`.
 */
const routes: FastifyPluginAsyncTypebox<{ service: AssessmentsService; ingest: Config['ingest'] }> = async (app, { service, ingest }) => {
  app.get('/assessments', {
    config: { permission: 'canQuery' },
    schema: {
      tags: ['assessments'],
      summary: 'Assessments of the workspace (newest first by default)',
      querystring: Type.Object({
        ...pageQuery(),
        status: Type.Optional(Type.Enum([...ASSESSMENT_STATUSES])),
        sort: Type.Enum(SORTS, { default: '-createdAt' }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ assessments: Type.Array(AssessmentListItem), pagination: PaginationSchema })), ...errorResponses },
    },
  }, async (request) => ok(await service.list(requestScope(request), request.query)));

  app.post('/assessments', {
    config: { permission: 'canManageSync' },
    schema: {
      tags: ['assessments'],
      summary: 'Create a DORA gap assessment from uploaded vendor documents (multipart/form-data) and/or documents already uploaded to the workspace (sourceFileId(s)); the analysis runs as a job',
      consumes: ['multipart/form-data', 'application/json'],
      body: { content: { 'multipart/form-data': { schema: MultipartBody }, 'application/json': { schema: JsonBody } } } as never,
      response: { 201: Envelope(Type.Object({ assessment: AssessmentCreated })), 413: ErrorEnvelope, 415: ErrorEnvelope, 422: ErrorEnvelope, ...errorResponses },
    },
  }, async (request, reply) => {
    let upload: { name: string | null; files: IncomingFile[]; sourceFileIds: string[] };
    if (request.isMultipart()) {
      const { files, fields, lists } = await readMultipart(request, ingest, { name: { maxLength: 200 }, sourceFileId: { maxLength: 100, repeated: true } }, 'assessment');
      const sourceFileIds = lists.sourceFileId ?? [];
      if (sourceFileIds.some((id) => !id)) throw badRequest('sourceFileId must be a file id', ['sourceFileId: must be 1-100 characters']);
      upload = { name: fields.name || null, files, sourceFileIds };
    } else {
      const body = request.body as { name?: string; sourceFileIds?: string[] } | undefined;
      // No body at all (no Content-Type): answered as an empty JSON body (the schema names the missing field).
      if (!request.headers['content-type'] && body !== undefined && Object.keys(body).length === 0) {
        throw badRequest('sourceFileIds: is required', ['sourceFileIds: is required']);
      }
      if (!request.headers['content-type']?.startsWith('application/json') || !body?.sourceFileIds) {
        throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Upload the vendor documents as multipart/form-data (fields: files, sourceFileId, name), or send JSON { sourceFileIds } to reuse uploaded documents');
      }
      upload = { name: body.name?.trim() || null, files: [], sourceFileIds: body.sourceFileIds };
    }
    const assessment = await service.create(requestScope(request), upload);
    return reply.status(201).send(ok({ assessment }, 'Assessment created; the gap analysis is queued'));
  });

  app.get('/assessments/:id', {
    config: { permission: 'canViewSources' },
    schema: {
      tags: ['assessments'],
      summary: 'Assessment details with the gap results (status, evidence quotes) per DORA obligation',
      params: IdParams,
      response: { 200: Envelope(Type.Object({ assessment: AssessmentDetail })), ...errorResponses },
    },
  }, async (request) => ok({ assessment: await service.detail(requestScope(request), request.params.id) }));

  app.get('/assessments/:id/documents/:documentId', {
    config: { permission: 'canViewSources' },
    schema: {
      tags: ['assessments'],
      summary: 'One document of the assessment as extracted text blocks (headings, page): what the evidence quotes point into',
      params: DocParams,
      response: {
        200: Envelope(Type.Object({ document: Type.Object({ ...DocumentOut.properties, blocks: Type.Array(Type.Object({ text: Type.String(), headings: Type.Array(Type.String()), page: Nullable(Type.Integer()) })) }) })),
        ...errorResponses,
      },
    },
  }, async (request) => ok({ document: await service.document(requestScope(request), request.params.id, request.params.documentId) }));

  app.delete('/assessments/:id', {
    config: { permission: 'canManageSync' },
    schema: {
      tags: ['assessments'],
      summary: 'Delete the assessment and its documents',
      params: IdParams,
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.remove(requestScope(request), request.params.id);
    return okMessage('Assessment deleted');
  });

  app.get('/assessments/:id/report', {
    config: { permission: 'canViewSources' },
    schema: {
      tags: ['assessments'],
      summary: 'Download the compliance report of a completed assessment (Word, .docx)',
      params: IdParams,
      produces: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      response: { 200: Type.Any({ description: 'The .docx file' }), ...errorResponses },
    },
  }, async (request, reply) => {
    const { filename, buffer } = await service.report(requestScope(request), request.params.id);
    return reply
      .header('Content-Type', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
      .header('Content-Disposition', `attachment; filename=${filename}`)
      .send(buffer);
  });
};

export default routes;
