import t from 'tap';
import { ragRepository } from '../../src/modules/rag/repository.js';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { queryRows, sql } from '../../src/db/client.js';
import { SHEETS, SOURCE_HEADERS } from '../../src/compliance/register/workbook.js';
import { buildTestApp, registerUser, type Session } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, makeLei, sampleVendorProfile, wsHeaders } from '../helpers/workspaces.js';
import { unzip } from '../helpers/assessments.js';
import { parse } from 'csv-parse/sync';

const API = '/api/v1';

/** Contract text in the form of the demo vendors' documents (terms, DPA annex, subprocessor list). */
const TERMS = `# Acme Cloud Customer Terms

## Term and Termination

This Agreement starts on the Effective Date and will continue in effect until terminated by a Party in accordance with this Section.

Either Party may terminate this Agreement, without cause, upon at least thirty (30) days' prior written notice.

## Governing Law

This Agreement will be governed by and construed in accordance with the laws of Ireland, without giving effect to the principles of conflict of law.

## Effect of Termination

Upon termination of this Agreement, Acme will return or delete all Customer Data within 60 days.
`;
const DPA = `# Acme Data Processing Addendum

## Audits

Customer may audit Acme's compliance with this DPA once a year with reasonable advance written notice.

## Annex I

Data importer(s):
Name: Acme Cloud Ltd
Address: 1 Harbour Road, Dublin 2, D02 XY45, Ireland
Activities relevant to the data transferred under these Clauses:
Acme Cloud Ltd is a software-as-a-service provider of payment reconciliation software which processes personal data upon the instruction of the data exporter.
`;
const SUBPROCESSORS = `# Acme Subprocessors

These subprocessors are all located in Germany:

* [Hetzner](https://example.com/hetzner). Cloud hosting provider.
* [Mailjet](https://example.com/mailjet). Transactional email service.
`;
const LATER = `# Acme Order Form

## Termination

Either Party may terminate this Agreement upon ninety (90) days' prior written notice.
`;

type Field = {
  field: string;
  status: string;
  target?: string;
  value?: unknown;
  confidence?: number;
  evidence: { chunkId: string; documentId: string; quote: string; link: string; title: string }[];
  candidates?: { value: unknown; evidence: { quote: string; documentId: string }[] }[];
  decision: { action: string } | null;
};

async function waitForDraft(app: FastifyInstance, headers: Record<string, string>, ws: string, id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `${API}/workspaces/${ws}/profile-drafts/${id}`, headers });
    if (res.statusCode !== 200) throw new Error(`GET draft: ${res.statusCode} ${res.body}`);
    const d = res.json().data.draft;
    if (d.status === 'completed' || d.status === 'failed')
      return d as { status: string; summary: Record<string, number>; fields: Field[]; error: string | null };
    if (Date.now() > deadline) throw new Error(`draft still ${d.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function draft(app: FastifyInstance, session: Session, ws: string) {
  const res = await app.inject({ method: 'POST', url: `${API}/workspaces/${ws}/profile-drafts`, headers: session.headers });
  if (res.statusCode !== 202) throw new Error(`POST draft: ${res.statusCode} ${res.body}`);
  const queued = res.json().data.draft;
  return { queued, done: await waitForDraft(app, session.headers, ws, queued.id) };
}

const decide = (app: FastifyInstance, session: Session, ws: string, id: string, decisions: unknown[], contract?: unknown) =>
  app.inject({
    method: 'POST',
    url: `${API}/workspaces/${ws}/profile-drafts/${id}/decisions`,
    headers: session.headers,
    payload: { decisions, ...(contract ? { contract } : {}) },
  });

const byField = (fields: Field[], f: string) => fields.find((x) => x.field === f)!;

t.test('a draft proposes values with verbatim passages; accept, edit and reject write the profile with sources; re-run and conflicts', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app, database } = ctx;
  const owner = await registerUser(app);
  const ws = (await createOrgAndWorkspace(app, owner, 'Acme Cloud')).workspaceId;
  await createTextSource(app, wsHeaders(owner, ws), [
    { title: 'Acme Cloud Customer Terms', content: TERMS, format: 'markdown' },
    { title: 'Acme Data Processing Addendum', content: DPA, format: 'markdown' },
    { title: 'Acme Subprocessors', content: SUBPROCESSORS, format: 'markdown' },
  ]);

  const { queued, done } = await draft(app, owner, ws);
  t.equal(queued.status, 'pending', 'the draft is queued as a job');
  t.equal(done.status, 'completed', done.error ?? '');
  const f = (name: string) => byField(done.fields, name);
  t.same(
    {
      legalName: f('legalName').value,
      governingLaw: f('governingLaw').value,
      endDate: f('endDate').value,
      entity: f('noticePeriodDaysEntity').value,
      provider: f('noticePeriodDaysProvider').value,
      type: f('ictServiceType').value,
      personal: f('personalData').value,
    },
    { legalName: 'Acme Cloud Ltd', governingLaw: 'IE', endDate: null, entity: 30, provider: 30, type: 'S19', personal: true },
  );
  t.same(
    (f('subcontractors').value as { name: string; country: string }[]).map((s) => [s.name, s.country]),
    [
      ['Hetzner', 'DE'],
      ['Mailjet', 'DE'],
    ],
  );
  t.equal(f('startDate').status, 'not_found', 'a field the documents do not settle is not found, never guessed');
  t.same(f('startDate').evidence, []);
  t.equal(f('startDate').value, undefined);

  // Every quote is verbatim in the stored passage it cites, and links to it.
  let quotes = 0;
  for (const field of done.fields) {
    for (const e of field.evidence) {
      const [row] = await queryRows<{ content: string; workspace_id: string }>(
        database.db,
        sql`select content, workspace_id from chunks where id = ${e.chunkId}`,
      );
      t.ok(row && row.content.includes(e.quote), `${field.field}: quote verbatim in chunk`);
      t.equal(row!.workspace_id, ws);
      t.match(e.link, /^\/api\/v1\/data-sources\/[^/]+\/files\//);
      quotes++;
    }
    if (field.status === 'proposed') t.ok(field.confidence! > 0 && field.confidence! <= 1, `${field.field}: confidence`);
  }
  t.ok(quotes >= 10);
  t.match(f('governingLaw').evidence[0]!.quote, /governed by and construed in accordance with the laws of Ireland/);

  // The one who drafted hears that it is ready.
  const notes = (await app.inject({ method: 'GET', url: `${API}/notifications`, headers: owner.headers })).json().data.notifications;
  t.ok(
    notes.some((n: { type: string; data: { draftId?: string } }) => n.type === 'profile_draft_completed' && n.data.draftId === queued.id),
    'notification',
  );

  // Contract fields need a contract: the profile has none yet.
  let res = await decide(app, owner, ws, queued.id, [{ field: 'governingLaw', action: 'accept' }]);
  t.equal(res.statusCode, 409);
  t.equal(res.json().error.code, 'CONTRACT_REQUIRED');
  t.equal(res.json().message, 'Acme Cloud has no contract yet: create it (a reference and a start date) to record governingLaw');
  const patch = await app.inject({
    method: 'PATCH',
    url: `${API}/workspaces/${ws}`,
    headers: owner.headers,
    payload: { vendorProfile: { contracts: [{ reference: 'ACME-1', startDate: '2025-01-01' }] } },
  });
  t.equal(patch.statusCode, 200);

  // Clear 400s in the envelope, naming the decision; nothing is written.
  res = await decide(app, owner, ws, queued.id, [{ field: 'colour', action: 'accept' }]);
  t.equal(res.statusCode, 400);
  t.equal(res.json().error.code, 'VALIDATION_ERROR');
  t.match(res.json().error.details[0], /^decisions\.0\.field: unknown field colour/);
  res = await decide(app, owner, ws, queued.id, [
    { field: 'governingLaw', action: 'accept' },
    { field: 'noticePeriodDaysEntity', action: 'edit', value: 'soon' },
  ]);
  t.equal(res.statusCode, 400);
  t.match(res.json().error.details[0], /^decisions\.1\.value: not a valid noticePeriodDaysEntity/);
  res = await decide(app, owner, ws, queued.id, [{ field: 'governingLaw', action: 'edit', value: 'XX' }]);
  t.equal(res.statusCode, 400);
  t.match(res.json().error.details[0], /^decisions\.0\.value: XX is not an ISO 3166-1 alpha-2 country code/);
  res = await decide(app, owner, ws, queued.id, [{ field: 'startDate', action: 'accept' }]);
  t.equal(res.statusCode, 400, 'nothing to accept for a field not found');
  t.match(res.json().error.details[0], /^decisions\.0\.action: nothing was found for startDate/);
  let profile = (await app.inject({ method: 'GET', url: `${API}/workspaces/${ws}`, headers: owner.headers })).json().data.workspace;
  t.equal(profile.vendorProfile.contracts[0].governingLaw, undefined, 'a refused batch writes nothing');

  // Accept, edit, reject.
  res = await decide(app, owner, ws, queued.id, [
    { field: 'governingLaw', action: 'accept' },
    { field: 'subcontractors', action: 'accept' },
    { field: 'noticePeriodDaysEntity', action: 'edit', value: 45 },
    { field: 'legalName', action: 'reject' },
  ]);
  t.equal(res.statusCode, 200, res.body);
  const body = res.json().data;
  t.equal(body.vendorProfile.contracts[0].governingLaw, 'IE');
  t.equal(body.vendorProfile.contracts[0].noticePeriodDaysEntity, 45);
  t.same(
    body.vendorProfile.subcontractors.map((s: { name: string }) => s.name),
    ['Hetzner', 'Mailjet'],
  );
  t.notOk('legalName' in body.vendorProfile, 'a rejected value is not written');
  const law = body.vendorProfileSources['contracts.0.governingLaw'];
  t.equal(law.action, 'accepted');
  t.equal(law.value, 'IE');
  t.match(law.evidence[0].quote, /laws of Ireland/);
  t.equal(body.vendorProfileSources['contracts.0.noticePeriodDaysEntity'].action, 'edited');
  t.equal(body.vendorProfileSources['contracts.0.noticePeriodDaysEntity'].value, 45);
  t.same(byField(body.draft.fields, 'legalName').decision!.action, 'rejected');
  t.same(byField(body.draft.fields, 'governingLaw').decision!.action, 'accepted');
  profile = (await app.inject({ method: 'GET', url: `${API}/workspaces/${ws}`, headers: owner.headers })).json().data.workspace;
  t.equal(profile.vendorProfileSources['contracts.0.governingLaw'].evidence[0].title, 'Acme Cloud Customer Terms', 'the source is kept beside the profile');

  // The register shows where the value came from: the workbook's source sheet and the pre-flight.
  const xlsx = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export`, headers: owner.headers });
  t.equal(xlsx.statusCode, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.getWorksheet(SHEETS.sources)!;
  t.same((sheet.getRow(1).values as unknown[]).slice(1), [...SOURCE_HEADERS]);
  const rows = [] as unknown[][];
  sheet.eachRow((r, i) => i > 1 && rows.push((r.values as unknown[]).slice(1)));
  const lawRow = rows.find((r) => r[3] === 'contracts.0.governingLaw')!;
  t.ok(lawRow, 'governing law row');
  t.equal(lawRow[4], 'IE');
  t.equal(lawRow[5], 'Acme Cloud Customer Terms');
  t.match(String(lawRow[8]), /laws of Ireland/);
  t.equal(lawRow[10], 'accepted');
  const pre = (await app.inject({ method: 'GET', url: `${API}/workspaces/roi-preflight`, headers: owner.headers })).json().data.preflight;
  const mine = pre.vendors.find((v: { workspaceId: string }) => v.workspaceId === ws);
  t.ok(mine.sources.some((s: { path: string; quote: string }) => s.path === 'contracts.0.governingLaw' && /laws of Ireland/.test(s.quote)));

  // Re-run after a new document: what was accepted from the same passage is unchanged; the new
  // notice period disagrees with the first one and is reported as a conflict with both passages.
  await createTextSource(app, wsHeaders(owner, ws), [{ title: 'Acme Order Form', content: LATER, format: 'markdown' }], 'Order form');
  const second = (await draft(app, owner, ws)).done;
  t.equal(byField(second.fields, 'governingLaw').status, 'unchanged', 'an accepted value from an unchanged passage is not proposed again');
  t.equal(second.summary.unchanged >= 1, true);
  const notice = byField(second.fields, 'noticePeriodDaysProvider');
  t.equal(notice.status, 'conflict');
  t.same(notice.candidates!.map((c) => c.value).sort(), [30, 90]);
  t.equal(new Set(notice.candidates!.map((c) => c.evidence[0]!.documentId)).size, 2, 'each candidate with its own document');
  t.equal(byField(second.fields, 'subcontractors').status, 'unchanged');
  const secondId = (await app.inject({ method: 'GET', url: `${API}/workspaces/${ws}/profile-drafts`, headers: owner.headers })).json().data.drafts[0].id;
  res = await decide(app, owner, ws, secondId, [{ field: 'noticePeriodDaysProvider', action: 'accept' }]);
  t.equal(res.statusCode, 400, 'a conflict needs a chosen candidate');
  t.match(res.json().error.details[0], /^decisions\.0\.candidate: the documents disagree/);
  const pick = notice.candidates!.findIndex((c) => c.value === 90);
  res = await decide(app, owner, ws, secondId, [{ field: 'noticePeriodDaysProvider', action: 'accept', candidate: pick }]);
  t.equal(res.statusCode, 200);
  t.equal(res.json().data.vendorProfile.contracts[0].noticePeriodDaysProvider, 90);
  t.equal(res.json().data.vendorProfileSources['contracts.0.noticePeriodDaysProvider'].evidence[0].title, 'Acme Order Form');

  // A value changed by hand loses its source.
  const manual = await app.inject({
    method: 'PATCH',
    url: `${API}/workspaces/${ws}`,
    headers: owner.headers,
    payload: { vendorProfile: { contracts: [{ ...profile.vendorProfile.contracts[0], governingLaw: 'DE', noticePeriodDaysProvider: 90 }] } },
  });
  t.equal(manual.statusCode, 200);
  t.notOk(manual.json().data.workspace.vendorProfileSources['contracts.0.governingLaw'], 'changed by hand: no document source');
  t.ok(manual.json().data.workspace.vendorProfileSources['contracts.0.noticePeriodDaysProvider'], 'unchanged value keeps its source');
});

t.test('permissions: canManageSync drafts and decides, viewers read; drafts of another workspace are not found', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const { orgId, workspaceId } = await createOrgAndWorkspace(app, owner, 'Acme Cloud');
  const workspace = { id: workspaceId };
  const other = await createWorkspace(app, owner, 'Other vendor', { vendorProfile: sampleVendorProfile({ identifier: undefined }) });
  await createTextSource(app, wsHeaders(owner, workspace.id), [{ title: 'Acme Cloud Customer Terms', content: TERMS, format: 'markdown' }]);
  const { queued } = await draft(app, owner, workspace.id);
  const viewer = await addOrgMember(app, owner, orgId, 'viewer');
  const analyst = await addOrgMember(app, owner, orgId, 'analyst');

  t.equal(
    (await app.inject({ method: 'GET', url: `${API}/workspaces/${workspace.id}/profile-drafts/${queued.id}`, headers: viewer.headers })).statusCode,
    200,
    'viewers read',
  );
  t.equal((await app.inject({ method: 'GET', url: `${API}/workspaces/${workspace.id}/profile-drafts`, headers: viewer.headers })).statusCode, 200);
  let res = await app.inject({ method: 'POST', url: `${API}/workspaces/${workspace.id}/profile-drafts`, headers: viewer.headers });
  t.equal(res.statusCode, 403, 'viewers cannot draft');
  t.equal(res.json().status, 'error');
  res = await decide(app, viewer, workspace.id, queued.id, [{ field: 'governingLaw', action: 'reject' }]);
  t.equal(res.statusCode, 403, 'viewers cannot decide');
  res = await decide(app, analyst, workspace.id, queued.id, [{ field: 'governingLaw', action: 'reject' }]);
  t.equal(res.statusCode, 200, 'members with canManageSync decide');

  // One draft at a time per vendor; a draft whose job died (not updated for longer than a job may run) no longer blocks.
  await waitForDraft(app, owner.headers, workspace.id, queued.id);
  await queryRows(
    ctx.database.db,
    sql`insert into profile_drafts (id, workspace_id, status, created_by, created_at, updated_at) values ('stuck-draft', ${workspace.id}, 'running', ${owner.id}, now() - interval '2 hours', now() - interval '1 hour')`,
  );
  res = await app.inject({ method: 'POST', url: `${API}/workspaces/${workspace.id}/profile-drafts`, headers: owner.headers });
  t.equal(res.statusCode, 202, 'a dead draft does not block a new one');
  const stuck = (await app.inject({ method: 'GET', url: `${API}/workspaces/${workspace.id}/profile-drafts/stuck-draft`, headers: owner.headers })).json().data
    .draft;
  t.equal(stuck.status, 'failed');
  await waitForDraft(app, owner.headers, workspace.id, res.json().data.draft.id);
  await queryRows(
    ctx.database.db,
    sql`insert into profile_drafts (id, workspace_id, status, created_by) values ('queued-draft', ${workspace.id}, 'pending', ${owner.id})`,
  );
  const again = await app.inject({ method: 'POST', url: `${API}/workspaces/${workspace.id}/profile-drafts`, headers: owner.headers });
  t.equal(again.statusCode, 409, 'while one is queued or running, another is refused');
  t.equal(again.json().error.code, 'PROFILE_DRAFT_RUNNING');
  await queryRows(ctx.database.db, sql`delete from profile_drafts where id = 'queued-draft'`);

  // The draft id under another workspace of the same caller: not found there.
  res = await app.inject({ method: 'GET', url: `${API}/workspaces/${other.id}/profile-drafts/${queued.id}`, headers: owner.headers });
  t.equal(res.statusCode, 404);
  t.equal(res.json().error.code, 'PROFILE_DRAFT_NOT_FOUND');
  res = await decide(app, owner, other.id, queued.id, [{ field: 'governingLaw', action: 'reject' }]);
  t.equal(res.statusCode, 404);
  // A workspace of another organization: access denied.
  const stranger = await registerUser(app);
  const theirs = { id: (await createOrgAndWorkspace(app, stranger, 'Stranger vendor', 'Other Bank')).workspaceId };
  res = await app.inject({ method: 'POST', url: `${API}/workspaces/${theirs.id}/profile-drafts`, headers: owner.headers });
  t.equal(res.statusCode, 403);
  res = await app.inject({ method: 'GET', url: `${API}/workspaces/${workspace.id}/profile-drafts/${queued.id}`, headers: stranger.headers });
  t.equal(res.statusCode, 403);
});

t.test('accepted values reach the xBRL-CSV package (B_02.02) as profile values', async (t) => {
  const ENTITY_LEI = makeLei('TESTACMEBANKAG0001');
  const base = (await import('../helpers/app.js')).testConfig();
  const ctx = await buildTestApp({
    roi: {
      ...base.roi,
      entityLei: ENTITY_LEI,
      entityCountry: 'DE',
      entityType: 'eba_CT:x12',
      competentAuthority: 'BaFin',
      referenceDate: '2025-12-31',
      totalAssets: 1_000_000_000,
      licensedActivity: 'eba_TA:x162',
    },
  });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  await createOrgAndWorkspace(app, owner, 'Placeholder');
  const fn = await app.inject({
    method: 'POST',
    url: `${API}/register/functions`,
    headers: owner.headers,
    payload: {
      name: 'Payments',
      licensedActivity: 'eba_TA:x162',
      criticality: 'yes',
      lastAssessmentDate: '2025-06-30',
      rtoHours: 4,
      rpoHours: 1,
      impact: 'high',
    },
  });
  t.equal(fn.statusCode, 201, fn.body);
  const profile = sampleVendorProfile({ lastAuditDate: '2025-09-30' });
  const contract = (profile.contracts as Record<string, unknown>[])[0]!;
  Object.assign(contract, { governingLaw: 'US', serviceLocations: ['IE'], functionIds: [fn.json().data.function.id] });
  const ws = await createWorkspace(app, owner, 'Acme Cloud', { vendorProfile: profile });
  await createTextSource(app, wsHeaders(owner, ws.id), [{ title: 'Acme Cloud Customer Terms', content: TERMS, format: 'markdown' }]);
  const { queued } = await draft(app, owner, ws.id);
  const res = await decide(app, owner, ws.id, queued.id, [
    { field: 'governingLaw', action: 'accept' },
    { field: 'noticePeriodDaysEntity', action: 'accept' },
  ]);
  t.equal(res.statusCode, 200, res.body);
  const x = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export?format=xbrl-csv`, headers: owner.headers });
  t.equal(x.statusCode, 200, x.statusCode === 200 ? '' : x.body);
  const files = await unzip(x.rawPayload);
  const b0202 = [...files.entries()].find(([k]) => k.endsWith('/reports/b_02.02.csv'))![1];
  const rows = parse(b0202, { columns: true }) as Record<string, string>[];
  const row = rows.find((r) => r.c0010 === contract.reference)!;
  t.equal(row.c0120, 'eba_GA:IE', 'the accepted governing law');
  t.equal(row.c0100, '30', 'the accepted notice period of the entity');
});

t.test('an accept that needs a contract creates it at the button: a start date, a unique reference from the document title', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const { workspaceId } = await createOrgAndWorkspace(app, owner, 'Acme Cloud');
  const two = await createWorkspace(app, owner, 'Acme Two');
  for (const id of [workspaceId, two.id])
    await createTextSource(app, wsHeaders(owner, id), [{ title: 'Acme Cloud Customer Terms', content: TERMS, format: 'markdown' }]);
  const first = await draft(app, owner, workspaceId);
  t.equal(byField(first.done.fields, 'governingLaw').target, 'contract', 'the field says it needs a contract');
  t.equal(byField(first.done.fields, 'legalName').target, 'profile');

  let res = await decide(app, owner, workspaceId, first.queued.id, [{ field: 'governingLaw', action: 'accept' }], { startDate: '2024-03-01' });
  t.equal(res.statusCode, 200, res.body);
  const [c] = res.json().data.vendorProfile.contracts;
  t.match(
    c,
    { reference: 'Acme Cloud Customer Terms', startDate: '2024-03-01', governingLaw: 'IE' },
    'the reference is the title of the document the value comes from',
  );
  t.type(c.id, 'string');
  t.ok(res.json().data.vendorProfileSources['contracts.0.governingLaw'], 'the accepted value keeps its source');
  res = await decide(app, owner, workspaceId, first.queued.id, [{ field: 'noticePeriodDaysEntity', action: 'accept' }], { startDate: '2024-03-01' });
  t.equal(res.statusCode, 400, 'a vendor with a contract needs no new one');

  // The same document title for another vendor: the reference is made unique.
  const second = await draft(app, owner, two.id);
  res = await decide(app, owner, two.id, second.queued.id, [{ field: 'governingLaw', action: 'accept' }], {
    reference: 'Acme Cloud Customer Terms',
    startDate: '2024-03-01',
  });
  t.equal(res.statusCode, 409, 'a reference chosen by hand that is taken');
  t.equal(res.json().error.code, 'CONTRACT_REFERENCE_TAKEN');
  res = await decide(app, owner, two.id, second.queued.id, [{ field: 'governingLaw', action: 'accept' }], { startDate: '2024-04-01' });
  t.equal(res.statusCode, 200, res.body);
  t.equal(res.json().data.vendorProfile.contracts[0].reference, 'Acme Cloud Customer Terms (2)', 'never a literal "Drafted contract", never a duplicate');

  // Decisions on different fields taken at the same time (two analysts, quick clicks): each is kept, in the draft and the profile.
  const open = second.done.fields.filter((f) => f.status === 'proposed' && f.field !== 'governingLaw').map((f) => f.field);
  t.ok(open.length >= 3, `fields to decide at once: ${open.join(', ')}`);
  const all = await Promise.all(open.map((field) => decide(app, owner, two.id, second.queued.id, [{ field, action: 'accept' }])));
  t.same(
    all.map((r) => r.statusCode),
    open.map(() => 200),
  );
  const after = await waitForDraft(app, wsHeaders(owner, two.id), two.id, second.queued.id);
  t.same(
    after.fields
      .filter((f) => f.decision)
      .map((f) => f.field)
      .sort(),
    ['governingLaw', ...open].sort(),
    'every decision is recorded in the draft',
  );
  const ws = (await app.inject({ method: 'GET', url: `${API}/workspaces/${two.id}`, headers: wsHeaders(owner, two.id) })).json().data.workspace;
  t.same(
    open.filter((f) => ws.vendorProfileSources[byField(second.done.fields, f).target === 'contract' ? `contracts.0.${f}` : f] === undefined),
    [],
    'and every accepted value is in the profile with its source',
  );
});

t.test('a subprocessor table stored over many passages is read to its end', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = (await createOrgAndWorkspace(app, owner, 'Acme Cloud')).workspaceId;
  // Rows long enough that each is a passage of its own (the chunk size is 1,200 characters).
  const purpose = (what: string) =>
    `For the purpose of ${what} we use the services of this provider, which processes the account data of our users, including names, e-mail addresses and usage data, on our behalf and on the basis of a data processing agreement with standard contractual clauses. `.repeat(
      4,
    );
  // More rows than the field's searches return (7 searches of 12 passages, much the same ones).
  const brands = ['Stripe', 'GitHub', 'Atlassian', 'GitLab', 'Assembla', 'Heroku', 'Zendesk', 'Mailchimp', 'Intercom', 'Twilio'];
  const names = ['North', 'South', 'East', 'West', 'Central', 'Global'].flatMap((region) => brands.map((b) => `${b} ${region}`));
  const table = [
    '| Third Party Provider | Data Processing Purpose |',
    '|:---:|:---|',
    ...names.map((n, i) => `| ${n} | ${purpose(`service ${i + 1}`).trim()} |`),
  ].join('\n');
  await createTextSource(app, wsHeaders(owner, ws), [
    {
      title: 'Acme privacy policy',
      content: `# Acme privacy policy\n\n## Third party providers\n\nWe use the following third party providers.\n\n${table}\n\n## Contact\n\nWrite to privacy@example.com.\n`,
      format: 'markdown',
    },
  ]);
  const { done } = await draft(app, owner, ws);
  t.equal(done.status, 'completed', done.error ?? '');
  const sub = byField(done.fields, 'subcontractors');
  t.same((sub.value as { name: string }[]).map((s) => s.name).sort(), [...names].sort(), 'every row, not only the retrieved passages');
});

t.test("the openings the description falls back on: each live document's first passages, in order", async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = (await createOrgAndWorkspace(app, owner, 'Acme Cloud')).workspaceId;
  const long = (what: string) => `${what} `.repeat(60);
  await createTextSource(app, wsHeaders(owner, ws), [
    {
      title: 'Acme whitepaper',
      content: `# Acme whitepaper\n\n${long('The Acme platform is a hosted ledger service.')}\n\n## Storage\n\n${long('Data is kept in three zones.')}\n`,
      format: 'markdown',
    },
    {
      title: 'Acme SLA',
      content: `# Acme SLA\n\n${long('This SLA covers the Acme Ledger.')}\n\n## Credits\n\n${long('Credits are ten percent.')}\n`,
      format: 'markdown',
    },
  ]);
  const repo = ragRepository(ctx.database.db);
  const firsts = await repo.openingChunks(ws, 1);
  t.same(firsts.map((c) => c.title).sort(), ['Acme SLA', 'Acme whitepaper'], 'one passage of each document');
  t.ok(firsts.every((c) => c.chunk_index === 0));
  t.ok(firsts.some((c) => c.content.includes('hosted ledger service')));
  const two = await repo.openingChunks(ws, 2);
  t.equal(two.length, 4);
  t.same(await repo.openingChunks((await createOrgAndWorkspace(app, owner, 'Other')).workspaceId, 2), [], "another workspace's are not read");
});
