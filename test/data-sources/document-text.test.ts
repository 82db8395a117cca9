import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { ingest, vendorDoc } from '../helpers/rag.js';
import { createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

// GET /documents/:id (docs/data-sources.md, "Reading a document"): a document of the workspace,
// or a DORA article of the shared corpus, as the text its passages were cut from, opened at a
// passage; and GET /data-sources/limits, what the dashboard checks before an upload.
const API = '/api/v1';
// What a raw policy file holds: front matter, Markdown, HTML line breaks, Liquid tags; long enough for several passages.
const POLICY = `---
title: Acme Data Protection Agreement
redirect_from:
  - /site-policy/acme-dpa
versions:
  fpt: '*'
---

## Introduction

The parties agree that this Acme Data Protection Agreement (“**DPA**”) sets forth their obligations.<br>It applies to all Online Services.

## Applicable DPA Terms and Updates

### Limits on Updates

${Array.from({ length: 8 }, (_, i) => `When Customer renews a subscription (${i + 1}), the then-current DPA Terms apply and do not change during its term.`).join(' ')}

### Government Regulation

Acme may modify an Online Service where required by law. Contact {% data variables.contact.support %} for details.

${Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}: Acme notifies Customer of a Security Incident without undue delay, and in any case within ${i + 24} hours of becoming aware of it.`).join('\n\n')}
`;
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

t.test('a document as text, at a passage', async (t) => {
  const ctx = await buildTestApp({ rag: { ...testConfig().rag, generator: 'extractive' } });
  t.teardown(ctx.close);
  const { app } = ctx;
  await app.services.dataSources.indexCorpus({ articles: [28] });
  const owner = await registerUser(app, { name: 'Owner' });
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const other = await createWorkspace(app, owner, 'Basecamp');
  const dsId = await ingest(app, gh.headers, 'GitHub policies', [
    { title: 'Acme Data Protection Agreement', content: POLICY },
    { title: 'GitHub Enterprise SLA', content: vendorDoc('github/github-enterprise-service-level-agreement.md'), url: 'https://github.com/github/site-policy' },
  ]);
  const ds = (await app.inject({ method: 'GET', url: `${API}/data-sources/${dsId}`, headers: gh.headers })).json().data.dataSource;
  const [dpaFile, slaFile] = ds.files;
  const read = (id: string, headers = gh.headers, query = '') => app.inject({ method: 'GET', url: `${API}/documents/${id}${query}`, headers });

  const dpaRes = await read(dpaFile.document.id);
  t.equal(dpaRes.statusCode, 200, dpaRes.body);
  const dpa = dpaRes.json().data.document;
  t.match(dpa, {
    id: dpaFile.document.id,
    title: 'Acme Data Protection Agreement',
    format: 'markdown',
    kind: 'file',
    dataSourceId: dsId,
    passage: null,
    link: null,
  });
  t.same(dpa.file, { id: dpaFile.id, filename: dpaFile.filename, mimeType: dpaFile.mimeType, sizeBytes: dpaFile.sizeBytes, url: dpaFile.url });
  const text = dpa.blocks.map((b: { text: string }) => b.text).join('\n');
  t.ok(dpaFile.document.chunkCount >= 3, `${dpaFile.document.chunkCount} passages`);
  t.equal(dpa.blocks.length, 15, 'every paragraph once (the overlap of the passages is read once)');
  t.notMatch(text, /redirect_from|^---$|versions:/m, 'no front matter');
  t.notMatch(text, /\*\*DPA\*\*|^#+ /m, 'Markdown rendered as text');
  t.notMatch(text, /<br\s*\/?>/i, 'no HTML tags');
  t.notMatch(text, /\{%|%\}/, 'no Liquid tags');
  t.match(text, /The parties agree that this Acme Data Protection Agreement \(“DPA”\) sets forth their obligations\./);
  t.ok(
    dpa.blocks.some((b: { headings: string[] }) => b.headings.at(-1) === 'Limits on Updates'),
    'blocks carry their headings',
  );
  const original = await app.inject({ method: 'GET', url: dpa.file.url, headers: gh.headers });
  t.equal(original.body, POLICY, 'the original file is one request away');

  const sla = (await read(slaFile.document.id)).json().data.document;
  t.notMatch(sla.blocks.map((b: { text: string }) => b.text).join('\n'), /<br\s*\/?>/i, 'no HTML tags');
  t.equal(sla.link, 'https://github.com/github/site-policy', 'the address it was indexed with');

  // At a passage: the source of an answer names its chunk; the passage is in the blocks.
  const answer = (
    await app.inject({
      method: 'POST',
      url: `${API}/rag`,
      headers: gh.headers,
      payload: { question: 'Within how many hours does Acme notify a security incident?' },
    })
  ).json().data;
  const source = answer.sources.find((s: { documentId: string }) => s.documentId === dpa.id);
  t.ok(source, 'an answer cites the DPA');
  const at = (await read(dpa.id, gh.headers, `?chunk=${source.id}`)).json().data.document;
  t.same(at.passage, { chunkId: source.id, content: source.content, section: source.section, page: null });
  t.ok(squash(text).includes(squash(source.content.split('\n\n').at(-1))), 'the passage is in the text');
  const unknown = (await read(dpa.id, gh.headers, '?chunk=no-such-chunk')).json().data.document;
  t.equal(unknown.passage, null, 'a passage no longer indexed gives the document without it');

  // A DORA article of the shared corpus, read from any workspace.
  const dora = (
    await app.inject({
      method: 'POST',
      url: `${API}/rag`,
      headers: gh.headers,
      payload: { question: 'What does DORA Article 28 require of the register of information?' },
    })
  ).json().data;
  const art = dora.sources.find((s: { workspaceId: string | null }) => s.workspaceId === null);
  t.ok(art, 'a DORA source');
  const corpus = (await read(art.documentId, wsHeaders(owner, other.id), `?chunk=${art.id}`)).json().data.document;
  t.match(corpus, { kind: 'corpus', title: /^DORA Article 28/, file: null, link: /^https:\/\/eur-lex\.europa\.eu\// });
  t.equal(corpus.passage.content, art.content);
  t.ok(
    squash(corpus.blocks.map((b: { text: string }) => b.text).join(' ')).includes(squash(art.content.split('\n\n').at(-1))),
    'the passage is in the article',
  );

  // Another workspace's document does not exist for this one; neither does a deleted one.
  const elsewhere = await read(dpa.id, wsHeaders(owner, other.id));
  t.equal(elsewhere.statusCode, 404);
  t.equal(elsewhere.json().error.code, 'DOCUMENT_NOT_FOUND');
  await app.inject({ method: 'DELETE', url: `${API}/data-sources/${dsId}`, headers: gh.headers });
  t.equal((await read(dpa.id)).statusCode, 404, 'a deleted document is gone');
  t.equal((await read(dpa.id, { ...owner.headers })).statusCode, 400, 'X-Workspace-Id is required');
});

t.test('upload limits: what the dashboard checks before sending a file', async (t) => {
  const ctx = await buildTestApp({ ingest: { ...testConfig().ingest, maxFileBytes: 1234567, maxFiles: 7 } });
  t.teardown(ctx.close);
  const { app } = ctx;
  const user = await registerUser(app);
  const res = await app.inject({ method: 'GET', url: `${API}/data-sources/limits`, headers: user.headers });
  t.equal(res.statusCode, 200, res.body);
  const { limits } = res.json().data;
  t.match(limits, { maxFileBytes: 1234567, maxFiles: 7, textByContent: true });
  t.same(
    limits.formats.find((f: { format: string }) => f.format === 'docx'),
    { format: 'docx', extensions: ['.docx'], mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  );
  t.same(limits.formats.find((f: { format: string }) => f.format === 'markdown').extensions, ['.md', '.markdown']);
  t.equal((await app.inject({ method: 'GET', url: `${API}/data-sources/limits` })).statusCode, 401, 'signed in only');
});
