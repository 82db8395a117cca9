import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../lib/envelope.js';
import type { RegisterService } from './service.js';
import { XLSX, exportRegister, preflightRegister } from './schemas.js';

/**
 * The Register of Information (docs/register-of-information.md). Authentication only,
 * no workspace: every workspace the caller can access is included. Static paths, so
 * they win over GET /workspaces/:id in Fastify's router.
 */

const routes: FastifyPluginAsyncTypebox<{ service: RegisterService }> = async (app, { service }) => {
  app.get(
    '/workspaces/roi-export',
    {
      schema: exportRegister,
    },
    async (request, reply) => {
      const userId = request.auth!.id;
      if (request.query.format === 'xbrl-csv') {
        const { filename, buffer } = await service.xbrl(userId);
        return reply.header('Content-Type', 'application/zip').header('Content-Disposition', `attachment; filename=${filename}`).send(buffer);
      }
      const { filename, buffer } = await service.workbook(userId);
      return reply.header('Content-Type', XLSX).header('Content-Disposition', `attachment; filename=${filename}`).send(buffer);
    },
  );

  app.get(
    '/workspaces/roi-preflight',
    {
      schema: preflightRegister,
    },
    async (request) => {
      const preflight = await service.preflight(request.auth!.id);
      return ok({ preflight }, preflight.ready ? 'The register is ready to file' : `The register has ${preflight.errors} error(s) to fix before filing`);
    },
  );
};

export default routes;
