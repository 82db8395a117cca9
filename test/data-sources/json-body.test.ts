import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { fixture, waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

t.test('documents in a JSON body (text and base64) are ingested', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    headers: a.headers,
    payload: {
      name: 'Inline policies',
      documents: [
        {
          title: 'Exit plan',
          format: 'markdown',
          content: '# Exit plan\n\n## Data return\n\nAll marzipan records are returned within 30 days of termination.',
          date: '2023-04-01',
          url: 'https://vendor.example/exit',
        },
        { filename: 'sample.docx', contentBase64: fixture('sample.docx').toString('base64') },
      ],
    },
  });
  t.equal(res.statusCode, 201, res.statusCode === 201 ? 'created' : res.body);
  const created = res.json().data.dataSource;
  t.equal(created.kind, 'json');
  t.same(
    created.files.map((f: { format: string }) => f.format),
    ['markdown', 'docx'],
  );
  const ds = await waitForDataSource(app, a.headers, created.id);
  t.equal(ds.status, 'ready');
  const [hit] = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'marzipan records returned' });
  t.equal(hit!.title, 'Exit plan', 'the given title wins');
  t.equal(hit!.url, 'https://vendor.example/exit', 'the given url is the source link');
  t.equal(hit!.section, 'Exit plan > Data return');
  const [docx] = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'quillfeather subcontract critical functions' });
  t.equal(docx!.title, 'Quillfeather Outsourcing Agreement');

  const bad = await app.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    headers: a.headers,
    payload: { documents: [{ title: 'x', content: 'a', contentBase64: 'YQ==' }] },
  });
  t.equal(bad.statusCode, 400);
  t.match(bad.json(), { status: 'error', error: { code: 'VALIDATION_ERROR' } });
  const none = await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: a.headers, payload: { documents: [] } });
  t.equal(none.statusCode, 400);
  const extra = await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: a.headers, payload: { documents: [{ content: 'x' }], bogus: 1 } });
  t.equal(extra.statusCode, 400);
  t.match(extra.json().error.details, [/bogus/]);
});
