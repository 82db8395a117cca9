import t from 'tap';
import { parseFile } from '../../src/ingest/parse.js';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createAssessment, docxText, vendorDocs, waitForAssessment } from '../helpers/assessments.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whitespace-normalised text of each uploaded file, as the project's parser reads it. */
async function corpus(files: { filename: string; content: Buffer | string }[]) {
  const out = new Map<string, string>();
  for (const f of files) {
    const buf = Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content);
    const { doc } = await parseFile(buf, f.filename, null, { maxTextChars: 5_000_000, maxDecompressedBytes: 100 * 1024 * 1024 });
    out.set(f.filename, squash(doc.blocks.map((b) => b.text).join('\n')));
  }
  return out;
}

type Result = {
  obligationId: string;
  status: string;
  doraText: string;
  elements: { id: string; satisfied: boolean }[];
  evidence: { filename: string; quote: string; element: string; role?: string }[];
  rationale: string;
};
const byId = (results: Result[], id: string) => {
  const r = results.find((x) => x.obligationId === id);
  if (!r) throw new Error(`no result for ${id}`);
  return r;
};

t.test('gap analysis of the GitHub and Basecamp documents cites real passages; report and lifecycle', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const bc = await createWorkspace(app, owner, 'Basecamp');

  const ghFiles = vendorDocs('github', [
    'github-data-protection-agreement.md',
    'github-corporate-terms-of-service.md',
    'github-enterprise-service-level-agreement.md',
    'github-sirt-description-rfc-2350.md',
    'github-subprocessors.md',
  ]);
  const created = await createAssessment(app, gh.headers, ghFiles, { name: 'GitHub DORA review' });
  t.equal(created.statusCode, 201, created.body);
  const a = created.json().data.assessment;
  t.equal(a.name, 'GitHub DORA review');
  t.ok(['pending', 'running', 'completed'].includes(a.status));
  t.equal(a.documents.length, 5);
  t.same(
    a.documents.map((d: { format: string }) => d.format),
    ['markdown', 'markdown', 'markdown', 'markdown', 'markdown'],
  );

  const done = await waitForAssessment(app, gh.headers, a.id);
  t.equal(done.status, 'completed', done.error ?? '');
  t.ok(done.score > 0 && done.score <= 100, `score ${done.score}`);
  t.ok(['low', 'medium', 'high', 'critical'].includes(done.riskRating));
  t.equal(done.summary.obligations, done.results.length);
  t.equal(done.summary.covered + done.summary.partial + done.summary.missing, done.results.length);

  // Every quote is a verbatim passage of the uploaded file it names.
  const ghText = await corpus(ghFiles);
  let quotes = 0;
  for (const r of done.results as Result[]) {
    for (const e of r.evidence) {
      quotes += 1;
      t.ok(ghText.get(e.filename)?.includes(squash(e.quote)), `quote of ${r.obligationId} found in ${e.filename}`);
    }
    t.equal(r.status === 'missing', r.evidence.length === 0, `${r.obligationId}: evidence iff not missing`);
  }
  t.ok(quotes > 20, `${quotes} quotes`);

  // GitHub's DPA notifies incidents, but "promptly and without undue delay" is no time limit: partial.
  const notice = byId(done.results, 'A30.3.b');
  t.equal(notice.status, 'partial');
  t.ok(notice.evidence.some((e) => e.filename === 'github-data-protection-agreement.md' && /Security Incident|breach/i.test(e.quote)));
  t.match(notice.rationale, /time limit for the notification only in part: no time limit is set/);
  // … and it is GitHub's notice of breaches of Customer Personal Data, not of every incident affecting the service.
  t.match(notice.rationale, /given for personal data only/);
  // Audit rights are satisfied by SOC reports (the DPA's own limitation): partial, with that clause quoted.
  for (const id of ['A28.6', 'A30.3.e']) {
    const audit = byId(done.results, id);
    t.equal(audit.status, 'partial', `${id} partial`);
    t.match(
      audit.rationale,
      /satisfied by something else \(e\.g\. reports\) instead \(“…Article 28\(3\)\(h\) of the GDPR\) will be satisfied by these compliance reports/,
    );
    t.ok(
      audit.evidence.some((e) => e.role === 'limitation' && /will be satisfied by these compliance reports/.test(e.quote)),
      `${id}: the SOC-report limitation is quoted as the limitation`,
    );
  }
  // No ISO 27001 and no RTO/RPO in GitHub's documents.
  const standards = byId(done.results, 'A28.5');
  t.not(standards.status, 'covered');
  t.equal(standards.elements.find((e) => e.id === 'certification')?.satisfied, false);
  t.notOk(standards.evidence.some((e) => /27001/.test(e.quote)));
  t.equal(byId(done.results, 'A30.3.c').elements.find((e) => e.id === 'objectives')?.satisfied, false);
  t.not(byId(done.results, 'A30.3.c').status, 'covered');
  t.equal(byId(done.results, 'A12').elements.find((e) => e.id === 'objectives')?.satisfied, false);
  t.ok(byId(done.results, 'A28.6').evidence.every((e) => typeof e.quote === 'string' && e.quote.length > 20));
  t.match(byId(done.results, 'A28.6').doraText, /access, inspection and audit rights/, 'DORA text from the reference data');

  // Basecamp: every file (two plain-text PDF conversions included).
  const bcFiles = vendorDocs('basecamp');
  const bcRes = await createAssessment(app, bc.headers, bcFiles);
  t.equal(bcRes.statusCode, 201, bcRes.body);
  t.match(bcRes.json().data.assessment.name, /^DORA assessment of Basecamp \(\d{4}-\d{2}-\d{2}\)$/);
  const bcDone = await waitForAssessment(app, bc.headers, bcRes.json().data.assessment.id);
  t.equal(bcDone.status, 'completed');
  const bcText = await corpus(bcFiles);
  for (const r of bcDone.results as Result[])
    for (const e of r.evidence) t.ok(bcText.get(e.filename)?.includes(squash(e.quote)), `basecamp quote of ${r.obligationId} in ${e.filename}`);
  // No certification or SOC audit of 37signals itself ("has not completed a SOC audit"): only its data centers' reports.
  const bcStandards = byId(bcDone.results, 'A28.5');
  t.equal(bcStandards.status, 'partial');
  t.notOk(
    bcStandards.elements.some((e) => e.satisfied),
    'neither a certificate nor a report of its own',
  );
  t.match(bcStandards.rationale, /no recognised certificate; not found: independent assurance report/);
  t.not(byId(bcDone.results, 'A30.3.c').status, 'covered');
  t.equal(byId(bcDone.results, 'A12').elements.find((e) => e.id === 'objectives')?.satisfied, false);
  t.ok(
    byId(bcDone.results, 'A12').evidence.some((e) => /backed up daily|hourly backups/i.test(e.quote)),
    'backups cited',
  );
  t.equal(byId(bcDone.results, 'A29.2.sub').status, 'covered', 'subprocessor list, notice and objection right in the DPA');

  // List: newest first, filter, pagination.
  const list = await app.inject({ method: 'GET', url: '/api/v1/assessments', headers: gh.headers });
  t.equal(list.statusCode, 200);
  t.equal(list.json().data.assessments.length, 1, "only the workspace's own assessments");
  t.same(list.json().data.pagination, { page: 1, limit: 20, total: 1, pages: 1, hasMore: false });
  t.notOk('results' in list.json().data.assessments[0], 'list items carry no gap results');
  const filtered = await app.inject({ method: 'GET', url: '/api/v1/assessments?status=failed', headers: gh.headers });
  t.equal(filtered.json().data.assessments.length, 0);
  const badSort = await app.inject({ method: 'GET', url: '/api/v1/assessments?sort=password', headers: gh.headers });
  t.equal(badSort.statusCode, 400);
  t.equal(badSort.json().error.code, 'VALIDATION_ERROR');

  // Another workspace cannot read it.
  const cross = await app.inject({ method: 'GET', url: `/api/v1/assessments/${a.id}`, headers: bc.headers });
  t.equal(cross.statusCode, 404);

  // The Word report.
  const rep = await app.inject({ method: 'GET', url: `/api/v1/assessments/${a.id}/report`, headers: gh.headers });
  t.equal(rep.statusCode, 200);
  t.equal(rep.headers['content-type'], 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  t.match(String(rep.headers['content-disposition']), /^attachment; filename=DORA_Gap_Assessment_GitHub_\d{4}-\d{2}-\d{2}\.docx$/);
  const text = await docxText(rep.rawPayload);
  t.match(text, /DORA Gap Assessment: GitHub/);
  t.match(text, /Summary/);
  t.match(text, new RegExp(`Overall score: ${done.score}/100`));
  t.match(text, /Findings by article/);
  t.match(text, /Article 28\(6\): Access, inspection and audit rights \[Partial\]/);
  // The summary table counts elements found but limited apart from those not found at all (GitHub's audit right is limited).
  t.match(text, /Access, inspection and audit rights\nPartial\n0\/2, [12] limited\b/, 'a partial status beside "0/2" says what was found');
  t.match(text, /Article 28\(5\): Appropriate information security standards \[(Partial|Missing)\]/);
  t.match(text, /Finding: Partial: right of the customer \(or its auditor\) to audit or inspect the provider is limited/);
  t.match(text, /Limitation: “Customer agrees that any information and audit rights/, 'the limiting clause is quoted as such');
  const quote = byId(done.results, 'A28.6').evidence[0]!.quote;
  t.ok(squash(text).includes(squash(quote).slice(0, 80)), 'evidence quote in the report');
  t.match(text, /github-data-protection-agreement\.md/);
  t.match(text, /Documents reviewed/);
  // A Word reader opens it: the project's DOCX parser (mammoth) reads its headings back.
  const reread = await parseFile(rep.rawPayload, 'report.docx', null, { maxTextChars: 5_000_000, maxDecompressedBytes: 100 * 1024 * 1024 });
  t.equal(reread.sniffed.format, 'docx');
  t.ok(
    reread.doc.blocks.some((b) => b.headings.includes('Findings by article')),
    'headings are real Word headings',
  );

  // Delete.
  const del = await app.inject({ method: 'DELETE', url: `/api/v1/assessments/${a.id}`, headers: gh.headers });
  t.equal(del.statusCode, 200);
  t.equal(del.json().message, 'Assessment deleted');
  t.equal((await app.inject({ method: 'GET', url: `/api/v1/assessments/${a.id}`, headers: gh.headers })).statusCode, 404);
  t.equal((await app.inject({ method: 'DELETE', url: `/api/v1/assessments/${a.id}`, headers: gh.headers })).statusCode, 404);
});

t.test('bad input and permissions', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Acme Cloud');
  const doc = {
    filename: 'terms.md',
    content: '# Terms\n\nEither party may terminate this agreement with thirty days prior written notice to the other party.\n',
    contentType: 'text/markdown',
  };

  const noAuth = await app.inject({ method: 'GET', url: '/api/v1/assessments', headers: { 'x-workspace-id': ws.workspaceId } });
  t.equal(noAuth.statusCode, 401);
  const noWs = await app.inject({ method: 'GET', url: '/api/v1/assessments', headers: owner.headers });
  t.equal(noWs.statusCode, 400);

  const none = await createAssessment(app, ws.headers, [], { name: 'x' });
  t.equal(none.statusCode, 400);
  t.match(none.json().message, /at least one document/);
  const json = await app.inject({ method: 'POST', url: '/api/v1/assessments', headers: ws.headers, payload: { name: 'x' } });
  t.equal(json.statusCode, 400, 'JSON is for reusing uploaded files: sourceFileIds is required');
  t.equal(json.json().error.code, 'VALIDATION_ERROR');
  const plain = await app.inject({ method: 'POST', url: '/api/v1/assessments', headers: { ...ws.headers, 'content-type': 'text/plain' }, payload: 'hello' });
  t.equal(plain.statusCode, 415);
  const png = await createAssessment(app, ws.headers, [
    {
      filename: 'logo.png',
      content: Buffer.from(
        '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
        'hex',
      ),
    },
  ]);
  t.equal(png.statusCode, 415);
  t.equal(png.json().error.code, 'UNSUPPORTED_MEDIA_TYPE');
  const empty = await createAssessment(app, ws.headers, [{ filename: 'empty.txt', content: '   \n' }]);
  t.equal(empty.statusCode, 422);
  const listed = await app.inject({ method: 'GET', url: '/api/v1/assessments', headers: ws.headers });
  t.equal(listed.json().data.pagination.total, 0, 'nothing stored by rejected uploads');

  // Other formats go through the same parsers (PDF, DOCX).
  const { fixture } = await import('../helpers/dataSources.js');
  const formats = await createAssessment(app, ws.headers, [
    { filename: 'sample.pdf', content: fixture('sample.pdf') },
    { filename: 'sample.docx', content: fixture('sample.docx') },
  ]);
  t.equal(formats.statusCode, 201, formats.body);
  t.same(
    formats.json().data.assessment.documents.map((d: { format: string }) => d.format),
    ['pdf', 'docx'],
  );
  t.ok(formats.json().data.assessment.documents.every((d: { characters: number }) => d.characters > 0));
  await app.inject({ method: 'DELETE', url: `/api/v1/assessments/${formats.json().data.assessment.id}`, headers: ws.headers });

  // Queued, not run (WORKERS=0): the report is not there yet.
  const ok = await createAssessment(app, ws.headers, [doc]);
  t.equal(ok.statusCode, 201);
  t.equal(ok.json().data.assessment.status, 'pending');
  const id = ok.json().data.assessment.id;
  const early = await app.inject({ method: 'GET', url: `/api/v1/assessments/${id}/report`, headers: ws.headers });
  t.equal(early.statusCode, 409);
  t.equal(early.json().error.code, 'ASSESSMENT_NOT_COMPLETE');

  // A viewer reads but cannot create or delete.
  const viewer = await addOrgMember(app, owner, ws.orgId, 'viewer');
  const vh = wsHeaders(viewer, ws.workspaceId);
  t.equal((await app.inject({ method: 'GET', url: '/api/v1/assessments', headers: vh })).statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: `/api/v1/assessments/${id}`, headers: vh })).statusCode, 200);
  const vCreate = await createAssessment(app, vh, [doc]);
  t.equal(vCreate.statusCode, 403);
  t.equal(vCreate.json().error.code, 'INSUFFICIENT_PERMISSION');
  t.equal((await app.inject({ method: 'DELETE', url: `/api/v1/assessments/${id}`, headers: vh })).statusCode, 403);
  // An analyst (workspace member) may create.
  const analyst = await addOrgMember(app, owner, ws.orgId, 'analyst');
  t.equal((await createAssessment(app, wsHeaders(analyst, ws.workspaceId), [doc])).statusCode, 201);
  // Someone outside the organization gets nothing.
  const stranger = await registerUser(app);
  t.equal((await app.inject({ method: 'GET', url: '/api/v1/assessments', headers: wsHeaders(stranger, ws.workspaceId) })).statusCode, 403);

  // The DORA reference data must be loaded before a gap analysis.
  await app.services.compliance.loadReferenceData({ reset: true, articles: [] });
  const unloaded = await createAssessment(app, ws.headers, [doc]);
  t.equal(unloaded.statusCode, 409);
  t.equal(unloaded.json().error.code, 'REFERENCE_DATA_NOT_LOADED');
  await app.services.compliance.loadReferenceData();
  t.equal((await createAssessment(app, ws.headers, [doc])).statusCode, 201);

  // Deleting the workspace deletes its assessments and their documents.
  const count = async (table: string) =>
    (await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from ${sql.raw(table)} where workspace_id = ${ws.workspaceId}`))[0]!.n;
  t.ok((await count('assessments')) >= 2);
  t.equal((await app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${ws.workspaceId}`, headers: owner.headers })).statusCode, 200);
  t.equal(await count('assessments'), 0);
  t.equal(await count('assessment_documents'), 0);
});
