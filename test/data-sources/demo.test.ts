import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { DEMO_USER, loadDemo } from '../../src/cli/demo.js';
import { buildTestApp } from '../helpers/app.js';

t.test('the demo loader creates the demo user, organization, two vendors and their ingested documents, repeatably', async (t) => {
  // A miniature of ../shared/data/vendor-docs (one real-looking file per vendor) keeps the test small.
  const dir = mkdtempSync(path.join(tmpdir(), 'vendor-docs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'github'));
  mkdirSync(path.join(dir, 'basecamp'));
  writeFileSync(
    path.join(dir, 'github', 'github-subprocessors.md'),
    '---\ntitle: GitHub Subprocessors\n---\n\n## Notice\n\nGitHub publishes new subprocessors 30 days in advance.\n',
  );
  writeFileSync(path.join(dir, 'basecamp', 'security-overview-whitepaper.txt'), 'SECURITY OVERVIEW\n\nBackups\n\nWe take hourly backups of all databases.\n');
  writeFileSync(path.join(dir, 'basecamp', 'README'), 'not a document of the demo');

  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const first = await loadDemo(app.services, { vendorDocsDir: dir });
  t.same(
    first.vendors.map((v) => [v.workspaceName, v.status, v.documents]),
    [
      ['GitHub', 'ready', 1],
      ['Basecamp', 'ready', 1],
    ],
  );

  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: DEMO_USER.email, password: DEMO_USER.password } });
  t.equal(login.statusCode, 200, 'the documented credentials work');
  const headers = { authorization: `Bearer ${login.cookies.find((c) => c.name === 'accessToken')!.value}` };
  const ws = (await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers })).json().data.workspaces;
  t.same(ws.map((w: { workspaceName: string }) => w.workspaceName).sort(), ['Basecamp', 'GitHub']);
  const basecamp = first.vendors[1]!;
  const [hit] = await app.services.retrieval.search({ workspaceId: basecamp.workspaceId, query: 'how often are databases backed up' });
  t.match(hit!.content, /hourly backups/);
  const github = await app.services.retrieval.search({ workspaceId: first.vendors[0]!.workspaceId, query: 'hourly backups of all databases', limit: 10 });
  t.notOk(
    github.some((h) => h.workspaceId === basecamp.workspaceId),
    'vendors are separate workspaces',
  );

  const second = await loadDemo(app.services, { vendorDocsDir: dir });
  t.same(
    second.vendors.map((v) => v.dataSourceId),
    first.vendors.map((v) => v.dataSourceId),
    'running it again creates nothing new',
  );
  const sources = await app.services.dataSources.list({ workspaceId: basecamp.workspaceId }, { page: 1, limit: 10 });
  t.equal(sources.pagination.total, 1);
});
