import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';

/**
 * The OpenAPI document (`/docs/json`) is one a client can be generated from
 * (docs/api-conventions.md, "OpenAPI"). The rules of Redocly's `recommended` set that can be
 * checked without Redocly are checked here; when `@redocly/openapi-core` is installed its own
 * lint runs too, and when `openapi-typescript` is, a client generated from the document must
 * type-check calls to /rag and /workspaces.
 */
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  security?: Record<string, string[]>[];
}
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const PUBLIC_URL = 'https://dora.bank.example.eu';

const ctx = await buildTestApp({ publicUrl: PUBLIC_URL, dashboardDir: path.resolve('web/dist') });
t.teardown(ctx.close);
const res = await ctx.app.inject({ method: 'GET', url: '/docs/json' });
const doc = res.json() as {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
  security?: Record<string, string[]>[];
  info: { license?: { name: string } };
};
const ops = Object.entries(doc.paths).flatMap(([p, item]) =>
  Object.entries(item)
    .filter(([m]) => METHODS.includes(m))
    .map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, path: p, method: m, op })),
);
const requireHere = createRequire(import.meta.url);
const installed = (name: string) => {
  try {
    requireHere.resolve(name);
    return true;
  } catch {
    return false;
  }
};

t.test('every operation has a unique, url-safe operationId and a summary', async (t) => {
  t.ok(ops.length > 90, `${ops.length} operations`);
  const missing = ops.filter((o) => !o.op.operationId).map((o) => o.key);
  t.same(missing, [], 'operation-operationId');
  const ids = ops.map((o) => o.op.operationId);
  t.same(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    'operation-operationId-unique',
  );
  t.same(
    ops.filter((o) => !/^[A-Za-z0-9._~-]+$/.test(o.op.operationId ?? '')).map((o) => o.key),
    [],
    'operation-operationId-url-safe',
  );
  t.same(
    ops.filter((o) => !o.op.summary?.trim()).map((o) => o.key),
    [],
    'operation-summary',
  );
});

t.test('only the API is in the document: no dashboard route, no undefined path parameter', async (t) => {
  t.same(
    Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/') && p !== '/health'),
    [],
    'the dashboard routes (/, /{*}) are left out',
  );
  const problems: string[] = [];
  for (const o of ops) {
    const inPath = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const declared = (o.op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    for (const name of inPath) if (!declared.includes(name)) problems.push(`${o.key}: {${name}} not declared`);
    for (const name of declared) if (!inPath.includes(name)) problems.push(`${o.key}: path parameter ${name} not in the path`);
    if (o.path.length > 1 && o.path.endsWith('/')) problems.push(`${o.key}: trailing slash`);
    if (o.path.includes('?')) problems.push(`${o.key}: query in the path`);
  }
  t.same(problems, [], 'path-parameters-defined, no-path-trailing-slash, path-not-include-query');
  const shapes = Object.keys(doc.paths).map((p) => p.replace(/\{[^}]+\}/g, '{}'));
  t.same(
    shapes.filter((s, i) => shapes.indexOf(s) !== i),
    [],
    'no-identical-paths',
  );
});

t.test('servers come from PUBLIC_URL; tags, license and security are defined', async (t) => {
  t.same(doc.servers, [{ url: PUBLIC_URL, description: 'This service (PUBLIC_URL)' }], 'no-empty-servers');
  t.notOk(
    doc.servers?.some((s) => /example\.com/.test(s.url)),
    'no-server-example.com',
  );
  t.ok(doc.info.license?.name, 'info-license');
  const tags = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
  const used = [...new Set(ops.flatMap((o) => o.op.tags ?? []))];
  t.same(
    used.filter((name) => !tags.get(name)),
    [],
    'every tag used is declared with a description (operation-tag-defined, tag-description)',
  );
  const schemes = Object.keys(doc.components?.securitySchemes ?? {});
  const referenced = [...(doc.security ?? []), ...ops.flatMap((o) => o.op.security ?? [])].flatMap((s) => Object.keys(s));
  t.same(
    referenced.filter((s) => !schemes.includes(s)),
    [],
    'security-defined',
  );
});

t.test('every operation declares a success and the errors it can answer', async (t) => {
  const problems: string[] = [];
  for (const o of ops) {
    const codes = Object.keys(o.op.responses ?? {});
    if (!codes.some((c) => /^2\d\d$/.test(c))) problems.push(`${o.key}: no 2xx`);
    if (!codes.some((c) => /^4\d\d$/.test(c))) problems.push(`${o.key}: no 4xx`);
    if (!o.path.startsWith('/api/v1/')) continue;
    // Every API operation: bad input, authentication, access, unknown ids, conflicts, rate limits, database away.
    for (const c of ['400', '401', '403', '404', '429', '503']) if (!codes.includes(c)) problems.push(`${o.key}: ${c} not declared`);
    if (o.op.requestBody || ['post', 'put', 'patch'].includes(o.method))
      for (const c of ['413', '415']) if (!codes.includes(c)) problems.push(`${o.key}: ${c} not declared (it takes a body)`);
  }
  t.same(problems, [], 'operation-2xx-response, operation-4xx-response, and the service-wide errors');
  for (const key of ['POST /api/v1/workspaces', 'POST /api/v1/rag', 'POST /api/v1/data-sources', 'POST /api/v1/organizations/{id}/api-keys']) {
    const [method, p] = key.split(' ');
    t.ok(doc.paths[p]?.[method.toLowerCase()]?.responses?.['422'], `${key} declares 422 (Idempotency-Key reused)`);
  }
});

t.test(
  "Redocly's recommended rules",
  { skip: installed('@redocly/openapi-core') ? false : '@redocly/openapi-core is not installed (see the report of issue 33)' },
  async (t) => {
    const redocly = (await import('@redocly/openapi-core' as string)) as {
      lintFromString(o: { source: string; config: unknown }): Promise<{ severity: string; ruleId: string; message: string }[]>;
      createConfig(c: unknown): Promise<unknown>;
    };
    const config = await redocly.createConfig({ extends: ['recommended'] });
    const problems = await redocly.lintFromString({ source: JSON.stringify(doc), config });
    const errors = problems.filter((p) => p.severity === 'error');
    t.same(
      errors.map((e) => `${e.ruleId}: ${e.message}`),
      [],
      `no error (${problems.length - errors.length} warnings)`,
    );
  },
);

t.test(
  'a client generated from the document type-checks calls to /rag and /workspaces',
  { skip: installed('openapi-typescript') ? false : 'openapi-typescript is not installed (see the report of issue 33)' },
  async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-client-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const { default: openapiTS, astToString } = (await import('openapi-typescript' as string)) as {
      default(schema: unknown): Promise<unknown>;
      astToString(ast: unknown): string;
    };
    writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));
    writeFileSync(
      path.join(dir, 'client.ts'),
      `import type { paths } from './api';
type Body<P extends keyof paths, M extends 'post'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Ok<P extends keyof paths, M extends 'get' | 'post', C extends number> = paths[P][M] extends { responses: { [K in C]: { content: { 'application/json': infer R } } } } ? R : never;
const ask: Body<'/api/v1/rag', 'post'> = { question: 'How fast are incidents reported?' };
declare const answer: Ok<'/api/v1/rag', 'post', 200>;
const conversationId: string = answer.data.conversationId;
declare const list: Ok<'/api/v1/workspaces', 'get', 200>;
const names: string[] = list.data.workspaces.map((w) => w.workspaceName);
const create: Body<'/api/v1/workspaces', 'post'> = { workspaceName: 'Okta' };
// @ts-expect-error: the question is required
const bad: Body<'/api/v1/rag', 'post'> = {};
export { ask, conversationId, names, create, bad };
`,
    );
    const tsc = spawnSync(
      process.execPath,
      [requireHere.resolve('typescript/bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', path.join(dir, 'client.ts')],
      {
        encoding: 'utf8',
      },
    );
    t.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  },
);
