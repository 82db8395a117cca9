import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { TEMPLATES } from '../../compliance/register/xbrl.js';
import { Envelope, ErrorEnvelope, errorResponses, ok } from '../../lib/envelope.js';
import type { RegisterService } from './service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const Issue = Type.Object({
  severity: Type.Enum(['error', 'warning']),
  template: Type.Union([Type.Enum([...TEMPLATES]), Type.Null()]),
  column: Type.Union([Type.String(), Type.Null()]),
  field: Type.String(),
  message: Type.String(),
});
const Preflight = Type.Object({
  ready: Type.Boolean(),
  errors: Type.Integer(),
  warnings: Type.Integer(),
  entity: Type.Array(Issue),
  vendors: Type.Array(Type.Object({ workspaceId: Type.String(), workspaceSlug: Type.String(), name: Type.String(), included: Type.Boolean(), issues: Type.Array(Issue),
    sources: Type.Array(Type.Object({ field: Type.String(), path: Type.String(), document: Type.String(), quote: Type.String(), link: Type.String(), action: Type.String() }), { description: 'Profile values taken from the vendor\'s documents and where each came from (docs/register-drafting.md)' }) })),
  settings: Type.Array(Type.Object({
    variable: Type.String({ description: 'environment variable of the service that sets it' }),
    label: Type.String(),
    value: Type.Union([Type.String(), Type.Null()], { description: 'null: not configured' }),
    isDefault: Type.Boolean({ description: 'the value is the built-in default' }),
  }), { description: 'the entity settings in force (read-only: set by the service configuration)' }),
});

/**
 * The Register of Information (docs/register-of-information.md). Authentication only,
 * no workspace: every workspace the caller can access is included. Static paths, so
 * they win over GET /workspaces/:id in Fastify's router.
 */
const routes: FastifyPluginAsyncTypebox<{ service: RegisterService }> = async (app, { service }) => {
  app.get('/workspaces/roi-export', {
    schema: {
      tags: ['workspaces'],
      summary: 'DORA Article 28(3) Register of Information: XLSX workbook (default) or the EBA xBRL-CSV report package (format=xbrl-csv)',
      querystring: Type.Object({ format: Type.Enum(['xlsx', 'xbrl-csv'], { default: 'xlsx' }) }, { additionalProperties: false }),
      produces: [XLSX, 'application/zip'],
      response: { 200: Type.Any({ description: 'The workbook, or the report package (zip)' }), 422: ErrorEnvelope, ...errorResponses },
    },
  }, async (request, reply) => {
    const userId = request.auth!.id;
    if (request.query.format === 'xbrl-csv') {
      const { filename, buffer } = await service.xbrl(userId);
      return reply.header('Content-Type', 'application/zip').header('Content-Disposition', `attachment; filename=${filename}`).send(buffer);
    }
    const { filename, buffer } = await service.workbook(userId);
    return reply.header('Content-Type', XLSX).header('Content-Disposition', `attachment; filename=${filename}`).send(buffer);
  });

  app.get('/workspaces/roi-preflight', {
    schema: {
      tags: ['workspaces'],
      summary: 'Pre-flight check of the xBRL-CSV register: empty or duplicate keys, broken references (errors) and missing values (warnings), per vendor',
      response: { 200: Envelope(Type.Object({ preflight: Preflight })), ...errorResponses },
    },
  }, async (request) => {
    const preflight = await service.preflight(request.auth!.id);
    return ok({ preflight }, preflight.ready ? 'The register is ready to file' : `The register has ${preflight.errors} error(s) to fix before filing`);
  });
};

export default routes;
