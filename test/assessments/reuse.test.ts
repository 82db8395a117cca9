import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createAssessment } from '../helpers/assessments.js';
import { createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

// An assessment can reuse documents already uploaded to the vendor workspace (data source
// files) instead of a new upload, and each of its documents can be read back as text blocks
// (what the dashboard opens when an evidence quote is clicked). docs/assessments.md.
t.test('assessments from workspace documents; documents as text', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const other = await createWorkspace(app, owner, 'Basecamp');

  const source = async (headers: Record<string, string>, content: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/data-sources',
      headers,
      payload: { documents: [{ filename: 'security.md', format: 'markdown', content }] },
    });
    t.equal(res.statusCode, 201, res.body);
    return res.json().data.dataSource.files[0].id as string;
  };
  const fileId = await source(gh.headers, '# Security policy\n\n## Incidents\n\nThe vendor notifies security incidents within 24 hours of detection.');
  const foreignFileId = await source(other.headers, '# Other vendor\n\nNothing to see.');
  const count = async () => (await app.inject({ method: 'GET', url: '/api/v1/assessments', headers: gh.headers })).json().data.pagination.total;

  // JSON body: reuse only.
  const json = await app.inject({ method: 'POST', url: '/api/v1/assessments', headers: gh.headers, payload: { name: 'Reuse', sourceFileIds: [fileId] } });
  t.equal(json.statusCode, 201, json.body);
  const a = json.json().data.assessment;
  t.equal(a.name, 'Reuse');
  t.same(
    a.documents.map((d: { filename: string; format: string }) => [d.filename, d.format]),
    [['security.md', 'markdown']],
    'the stored file is parsed again',
  );

  // Multipart: an upload and a reused file together.
  const mixed = await createAssessment(app, gh.headers, [{ filename: 'sla.md', content: '# SLA\n\nAvailability 99.9 %.', contentType: 'text/markdown' }], {
    sourceFileId: fileId,
  });
  t.equal(mixed.statusCode, 201, mixed.body);
  t.same(
    mixed.json().data.assessment.documents.map((d: { filename: string }) => d.filename),
    ['sla.md', 'security.md'],
  );
  t.equal(await count(), 2);

  // Unknown ids and files of another workspace: 404 naming them, nothing stored.
  for (const bad of ['no-such-file', foreignFileId]) {
    const res = await app.inject({ method: 'POST', url: '/api/v1/assessments', headers: gh.headers, payload: { sourceFileIds: [fileId, bad] } });
    t.equal(res.statusCode, 404, res.body);
    t.equal(res.json().error.code, 'FILE_NOT_FOUND');
    t.match(res.json().message, bad);
  }
  const empty = await app.inject({ method: 'POST', url: '/api/v1/assessments', headers: gh.headers, payload: { sourceFileIds: [] } });
  t.equal(empty.statusCode, 400, 'an empty list is a validation error');
  const noBody = await app.inject({ method: 'POST', url: '/api/v1/assessments', headers: gh.headers, payload: { name: 'x' } });
  t.equal(noBody.statusCode, 400, 'JSON needs sourceFileIds');
  t.equal(await count(), 2, 'refused requests stored nothing');

  // A document of the assessment as text blocks with headings.
  const docId = a.documents[0].id;
  const doc = await app.inject({ method: 'GET', url: `/api/v1/assessments/${a.id}/documents/${docId}`, headers: gh.headers });
  t.equal(doc.statusCode, 200, doc.body);
  const d = doc.json().data.document;
  t.equal(d.filename, 'security.md');
  const block = d.blocks.find((b: { text: string }) => /within 24 hours/.test(b.text));
  t.ok(block, 'the passage is a block');
  t.same(block.headings, ['Security policy', 'Incidents']);
  t.equal(block.page, null);
  // Its original: the vendor's file it was taken from (same bytes); an upload found nowhere else has none.
  const ds = (await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: gh.headers })).json().data.dataSources[0];
  t.same(d.original, { id: fileId, dataSourceId: ds.id, filename: 'security.md', url: `/api/v1/data-sources/${ds.id}/files/${fileId}` });
  const uploaded = mixed.json().data.assessment;
  const sla = (await app.inject({ method: 'GET', url: `/api/v1/assessments/${uploaded.id}/documents/${uploaded.documents[0].id}`, headers: gh.headers })).json()
    .data.document;
  t.equal(sla.original, null, 'an upload kept only as text has no original');
  await app.inject({ method: 'DELETE', url: `/api/v1/data-sources/${ds.id}`, headers: gh.headers });
  const gone = (await app.inject({ method: 'GET', url: `/api/v1/assessments/${a.id}/documents/${docId}`, headers: gh.headers })).json().data.document;
  t.equal(gone.original, null, 'once the vendor file is deleted, no original');
  t.equal(gone.blocks.length, d.blocks.length, 'the assessment keeps its text');
  const unknown = await app.inject({ method: 'GET', url: `/api/v1/assessments/${a.id}/documents/nope`, headers: gh.headers });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'DOCUMENT_NOT_FOUND');
  const cross = await app.inject({ method: 'GET', url: `/api/v1/assessments/${a.id}/documents/${docId}`, headers: other.headers });
  t.equal(cross.statusCode, 404, 'another workspace cannot read it');
  t.equal(cross.json().error.code, 'ASSESSMENT_NOT_FOUND');
});
