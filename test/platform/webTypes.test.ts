import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';

/**
 * The dashboard takes the API's shapes from types generated from the OpenAPI document
 * (web/src/api/openapi.d.ts, read by web/src/api/types.ts), so a field the API does not have
 * fails the dashboard's type check. This test regenerates them and fails when the committed file
 * is stale; `UPDATE_API_TYPES=1 node scripts/test.mjs test/platform/webTypes.test.ts` rewrites it.
 */
const FILE = path.resolve('web/src/api/openapi.d.ts');
const HEADER = '/* Generated from the OpenAPI document by test/platform/webTypes.test.ts (UPDATE_API_TYPES=1). Do not edit. */\n';

const ctx = await buildTestApp({ dashboardDir: path.resolve('web/dist') });
t.teardown(ctx.close);

t.test('web/src/api/openapi.d.ts is the one generated from the current OpenAPI document', async (t) => {
  const res = await ctx.app.inject({ method: 'GET', url: '/docs/json' });
  t.equal(res.statusCode, 200);
  const generated = HEADER + astToString(await openapiTS(res.json()));
  if (process.env.UPDATE_API_TYPES === '1') writeFileSync(FILE, generated);
  const committed = readFileSync(FILE, 'utf8');
  t.ok(committed === generated, 'the committed types match the document (rerun with UPDATE_API_TYPES=1 after changing a route schema)');
});
