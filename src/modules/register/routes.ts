import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, okMessage } from '../../lib/envelope.js';
import type { RegisterService } from './service.js';
import {
  XLSX,
  codeLists,
  createFunction,
  deleteFunction,
  deleteRate,
  exportRegister,
  getEntity,
  listAudit,
  listFunctions,
  listRates,
  preflightRegister,
  putEntity,
  putRate,
  updateFunction,
} from './schemas.js';

/**
 * The Register of Information (docs/register-of-information.md). Authentication only,
 * no workspace: every workspace the caller can access is included, and the register's own
 * records (entity settings, functions, exchange rates) are the caller's organization's.
 * The export routes are static paths, so they win over GET /workspaces/:id in Fastify's router.
 */

const routes: FastifyPluginAsyncTypebox<{ service: RegisterService }> = async (app, { service }) => {
  const { records } = service;
  const caller = (request: { auth?: { id: string } | null }) => records.caller(request.auth!.id);

  app.get('/workspaces/roi-export', { schema: exportRegister }, async (request, reply) => {
    const userId = request.auth!.id;
    if (request.query.format === 'xbrl-csv') {
      const { filename, buffer } = await service.xbrl(userId);
      return reply.header('Content-Type', 'application/zip').header('Content-Disposition', `attachment; filename=${filename}`).send(buffer);
    }
    const { filename, buffer } = await service.workbook(userId);
    return reply.header('Content-Type', XLSX).header('Content-Disposition', `attachment; filename=${filename}`).send(buffer);
  });

  app.get('/workspaces/roi-preflight', { schema: preflightRegister }, async (request) => {
    const preflight = await service.preflight(request.auth!.id);
    return ok({ preflight }, preflight.ready ? 'The register is ready to file' : `The register has ${preflight.errors} blocking issue(s) to fix before filing`);
  });

  app.get('/register/entity', { schema: getEntity }, async (request) => ok({ entity: await records.entityView(await caller(request)) }));
  app.put('/register/entity', { schema: putEntity }, async (request) =>
    ok({ entity: await records.updateEntity(await caller(request), request.body) }, 'Entity settings saved'),
  );

  app.get('/register/functions', { schema: listFunctions }, async (request) => ok(await service.functions(await caller(request), request.query)));
  app.post('/register/functions', { schema: createFunction }, async (request, reply) =>
    reply.status(201).send(ok({ function: await records.createFunction(await caller(request), request.body) }, 'Function added')),
  );
  app.patch('/register/functions/:id', { schema: updateFunction }, async (request) =>
    ok({ function: await records.updateFunction(await caller(request), request.params.id, request.body) }, 'Function saved'),
  );
  app.delete('/register/functions/:id', { schema: deleteFunction }, async (request) => {
    await service.deleteFunction(await caller(request), request.params.id);
    return okMessage('Function deleted');
  });

  app.get('/register/fx-rates', { schema: listRates }, async (request) => ok(await records.ratesPage(await caller(request), request.query)));
  app.put('/register/fx-rates', { schema: putRate }, async (request) =>
    ok({ rate: await records.putRate(await caller(request), request.body) }, 'Exchange rate saved'),
  );
  app.delete('/register/fx-rates/:currency/:date', { schema: deleteRate }, async (request) => {
    await records.deleteRate(await caller(request), request.params.currency, request.params.date);
    return okMessage('Exchange rate deleted');
  });

  app.get('/register/audit', { schema: listAudit }, async (request) => {
    const { kind, ...page } = request.query;
    return ok(await records.audit(await caller(request), { ...page, kind }));
  });

  app.get('/register/code-lists', { schema: codeLists }, async () => ok(service.codeLists()));
};

export default routes;
