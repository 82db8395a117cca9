import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { requestScope } from '../../plugins/workspace.js';
import type { Config } from '../../config.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { readMultipart } from '../../plugins/multipart.js';
import { ok, okMessage } from '../../lib/envelope.js';
import type { AssessmentsService, IncomingFile } from './service.js';
import {
  listAssessments,
  createAssessment,
  getAssessment,
  getAssessmentDocument,
  deleteAssessment,
  downloadReport,
  setVerdict,
  clearVerdict,
  commentResult,
  signOffAssessment,
  listReviews,
} from './schemas.js';

/**
 * The /assessments group (docs/assessments.md). Workspace-scoped (X-Workspace-Id):
 * listing needs `canQuery`; the detail and the report quote the vendor's documents and
 * need `canViewSources`; creating and deleting need `canManageSync`.
 */

/** The uploaded documents (multipart) or the ids of documents already uploaded (JSON) of POST /assessments. */
async function readUpload(request: FastifyRequest, ingest: Config['ingest']): Promise<{ name: string | null; files: IncomingFile[]; sourceFileIds: string[] }> {
  if (request.isMultipart()) {
    const { files, fields, lists } = await readMultipart(
      request,
      ingest,
      { name: { maxLength: 200 }, sourceFileId: { maxLength: 100, repeated: true } },
      'assessment',
    );
    const sourceFileIds = lists.sourceFileId ?? [];
    if (sourceFileIds.some((id) => !id)) throw badRequest('sourceFileId must be a file id', ['sourceFileId: must be 1-100 characters']);
    return { name: fields.name || null, files, sourceFileIds };
  }
  const body = request.body as { name?: string; sourceFileIds?: string[] } | undefined;
  // No body at all (no Content-Type): answered as an empty JSON body (the schema names the missing field).
  if (!request.headers['content-type'] && body !== undefined && Object.keys(body).length === 0) {
    throw badRequest('sourceFileIds: is required', ['sourceFileIds: is required']);
  }
  if (!request.headers['content-type']?.startsWith('application/json') || !body?.sourceFileIds) {
    throw new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Upload the vendor documents as multipart/form-data (fields: files, sourceFileId, name), or send JSON { sourceFileIds } to reuse uploaded documents',
    );
  }
  return { name: body.name?.trim() || null, files: [], sourceFileIds: body.sourceFileIds };
}

const routes: FastifyPluginAsyncTypebox<{ service: AssessmentsService; ingest: Config['ingest'] }> = async (app, { service, ingest }) => {
  app.get(
    '/assessments',
    {
      config: { permission: 'canQuery' },
      schema: listAssessments,
    },
    async (request) => ok(await service.list(requestScope(request), request.query)),
  );

  app.post(
    '/assessments',
    {
      config: { permission: 'canManageSync' },
      schema: createAssessment,
    },
    async (request, reply) => {
      const upload = await readUpload(request, ingest);
      const assessment = await service.create(requestScope(request), upload);
      return reply.status(201).send(ok({ assessment }, 'Assessment created; the gap analysis is queued'));
    },
  );

  app.get(
    '/assessments/:id',
    {
      config: { permission: 'canViewSources' },
      schema: getAssessment,
    },
    async (request) => ok({ assessment: await service.detail(requestScope(request), request.params.id) }),
  );

  app.get(
    '/assessments/:id/documents/:documentId',
    {
      config: { permission: 'canViewSources' },
      schema: getAssessmentDocument,
    },
    async (request) => ok({ document: await service.document(requestScope(request), request.params.id, request.params.documentId) }),
  );

  app.delete(
    '/assessments/:id',
    {
      config: { permission: 'canManageSync' },
      schema: deleteAssessment,
    },
    async (request) => {
      await service.remove(requestScope(request), request.params.id);
      return okMessage('Assessment deleted');
    },
  );

  app.put('/assessments/:id/results/:obligationId/verdict', { config: { permission: 'canManageSync' }, schema: setVerdict }, async (request) =>
    ok(await service.setVerdict(requestScope(request), request.params.id, request.params.obligationId, request.body), 'Verdict set'),
  );

  app.delete('/assessments/:id/results/:obligationId/verdict', { config: { permission: 'canManageSync' }, schema: clearVerdict }, async (request) =>
    ok(await service.clearVerdict(requestScope(request), request.params.id, request.params.obligationId, request.body ?? {}), 'Verdict withdrawn'),
  );

  app.post('/assessments/:id/results/:obligationId/comments', { config: { permission: 'canManageSync' }, schema: commentResult }, async (request, reply) =>
    reply
      .status(201)
      .send(ok({ review: await service.comment(requestScope(request), request.params.id, request.params.obligationId, request.body) }, 'Comment added')),
  );

  app.post('/assessments/:id/sign-off', { config: { permission: 'canManageSync' }, schema: signOffAssessment }, async (request) =>
    ok({ assessment: await service.signOff(requestScope(request), request.params.id, request.body) }, 'Assessment signed off'),
  );

  app.get('/assessments/:id/reviews', { config: { permission: 'canViewSources' }, schema: listReviews }, async (request) =>
    ok(await service.trail(requestScope(request), request.params.id, request.query)),
  );

  app.get(
    '/assessments/:id/report',
    {
      config: { permission: 'canViewSources' },
      schema: downloadReport,
    },
    async (request, reply) => {
      const { filename, buffer } = await service.report(requestScope(request), request.params.id);
      return reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
        .header('Content-Disposition', `attachment; filename=${filename}`)
        .send(buffer);
    },
  );
};

export default routes;
