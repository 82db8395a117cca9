import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { fixture, upload, waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

/**
 * One real file of each format goes through the API (multipart upload), is parsed,
 * chunked, embedded and stored by the ingestion job, and its text is then retrievable
 * in that workspace only.
 */
t.test('every format is ingested and retrievable in its workspace only', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const b = await createWorkspace(app, owner, 'Vendor B');

  const files = [
    { filename: 'sample.pdf', content: fixture('sample.pdf'), contentType: 'application/pdf' },
    { filename: 'sample.docx', content: fixture('sample.docx') },
    { filename: 'sample.xlsx', content: fixture('sample.xlsx') },
    { filename: 'sample.html', content: fixture('sample.html'), contentType: 'text/html' },
    { filename: 'sample.md', content: fixture('sample.md'), contentType: 'text/markdown' },
    { filename: 'sample.txt', content: fixture('sample.txt'), contentType: 'text/plain' },
    // The declared type is wrong on purpose: content decides.
    { filename: 'sample.json', content: fixture('sample.json'), contentType: 'application/octet-stream' },
  ];
  const res = await upload(app, a.headers, files, { name: 'Vendor A contract pack', description: 'All formats' });
  t.equal(res.statusCode, 201, res.statusCode === 201 ? 'created' : res.body);
  const created = res.json().data.dataSource;
  t.equal(created.name, 'Vendor A contract pack');
  t.equal(created.description, 'All formats');
  t.equal(created.kind, 'upload');
  t.ok(['pending', 'processing', 'ready'].includes(created.status));
  t.equal(created.files.length, 7);
  t.same(
    created.files.map((f: { format: string }) => f.format),
    ['pdf', 'docx', 'xlsx', 'html', 'markdown', 'text', 'json'],
  );
  t.equal(created.files[6].mimeType, 'application/json', 'the sniffed type is stored, not the declared one');

  const ds = await waitForDataSource(app, a.headers, created.id);
  t.equal(ds.status, 'ready', JSON.stringify(ds.error));
  t.equal(ds.error, null);
  t.equal(ds.documentCount, 7);
  t.ok(ds.chunkCount >= 7);
  t.equal(ds.pageCount, 2 + 1 + 2 + 1 + 1 + 1 + 1, 'PDF pages and worksheets count as pages');
  t.ok(ds.lastSyncedAt);
  const pdfDoc = ds.files[0].document;
  t.equal(pdfDoc.title, 'Zephyrine Hosting Security Addendum');
  t.equal(pdfDoc.pageCount, 2);
  t.equal(pdfDoc.date, '2024-03-15T00:00:00.000Z');
  t.equal(ds.files[4].document.title, 'Nebula Data Location Statement', 'title from the front matter');

  const listed = (await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: a.headers })).json().data;
  t.equal(listed.pagination.total, 1);
  t.same(
    listed.dataSources[0].files.map((f: { document: { title: string } }) => f.document.title),
    ds.files.map((f: { document: { title: string } }) => f.document.title),
    "the list shows each file's document",
  );

  // Stored chunks equal the announced count (no duplicates).
  const [{ n }] = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from chunks where data_source_id = ${ds.id}`);
  t.equal(n, ds.chunkCount);

  const expectations: [string, string, string][] = [
    ['zephyrine breach notification within 24 hours', 'Zephyrine Hosting Security Addendum', 'sample.pdf'],
    ['quillfeather termination for convenience', 'Quillfeather Outsourcing Agreement', 'sample.docx'],
    ['Tangerine Cloud Storage backup', 'Tangerine Subprocessor Register', 'sample.xlsx'],
    ['lighthouse backup frequency', 'Lighthouse Backup Policy', 'sample.html'],
    ['where is nebula customer data stored', 'Nebula Data Location Statement', 'sample.md'],
    ['juniper recovery point objective', 'JUNIPER BUSINESS CONTINUITY SUMMARY', 'sample.txt'],
    ['obsidian cyber insurance coverage', 'Obsidian Insurance Certificate', 'sample.json'],
  ];
  for (const [query, title] of expectations) {
    const inA = await app.services.retrieval.search({ workspaceId: a.workspaceId, query });
    t.ok(inA.length > 0, `results for "${query}"`);
    t.equal(inA[0]!.title, title, `best source for "${query}"`);
    t.equal(inA[0]!.dataSourceId, ds.id);
    t.equal(inA[0]!.workspaceId, a.workspaceId);
    t.ok(inA[0]!.score > 0 && inA[0]!.score <= 1);
    const inB = await app.services.retrieval.search({ workspaceId: b.id, query });
    t.notOk(
      inB.some((s) => s.workspaceId === a.workspaceId || s.dataSourceId === ds.id),
      `workspace B never sees A's "${title}"`,
    );
  }

  // Sections and pages survive: the PDF's second heading is on page 2.
  const audit = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'audit the zephyrine data centres' });
  t.equal(audit[0]!.section, 'Zephyrine Hosting Security Addendum > 2. Audit Rights');
  t.equal(audit[0]!.page, '2');
  t.match(audit[0]!.url, new RegExp(`/api/v1/data-sources/${ds.id}/files/[^#]+#page=2$`));
  // Scripts and navigation of the HTML page are not content.
  const script = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'ignoreme-script-token' });
  t.notOk(script.some((s) => s.content.includes('ignoreme')));

  // The original bytes can be downloaded back.
  const file = await app.inject({ method: 'GET', url: `/api/v1/data-sources/${ds.id}/files/${ds.files[0].id}`, headers: a.headers });
  t.equal(file.statusCode, 200);
  t.equal(file.headers['content-type'], 'application/pdf');
  t.same(file.rawPayload, fixture('sample.pdf'));
  const otherWs = await app.inject({ method: 'GET', url: `/api/v1/data-sources/${ds.id}`, headers: b.headers });
  t.equal(otherWs.statusCode, 404, 'another workspace cannot read it');
});
