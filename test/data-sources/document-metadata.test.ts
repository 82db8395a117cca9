import t from 'tap';
import { proposeDocumentMetadata, parseWrittenDate } from '../../src/domain/documentMetadata.js';
import { addDays } from '../../src/domain/inventory.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { ingest } from '../helpers/rag.js';
import { addOrgMember, createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Document metadata (docs/inventory.md, issue 31 item 3): type, effective date, expiry and
 * version proposed from the text, filtered, edited (kept across a re-sync), checked (400s), and
 * a document about to lapse told to the vendor owner once per expiry date, by notification and e-mail.
 */
const API = '/api/v1';
const written = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

t.test('proposals from text', async (t) => {
  t.same(proposeDocumentMetadata('GitHub SOC 2 Type II Report', 'This report is valid until 30 June 2027.\nVersion 2.1'), {
    type: 'soc_report',
    effectiveDate: null,
    expiryDate: '2027-06-30',
    version: '2.1',
  });
  t.same(proposeDocumentMetadata('github-data-protection-agreement', '# Data Protection Agreement\nEffective date: March 1, 2025'), {
    type: 'dpa',
    effectiveDate: '2025-03-01',
    expiryDate: null,
    version: null,
  });
  t.equal(proposeDocumentMetadata('Service Level Agreement', 'Uptime 99.9%').type, 'sla');
  t.equal(proposeDocumentMetadata('ISO 27001 Certificate', 'Certificate number 123. Expiry date: 2026-01-31').expiryDate, '2026-01-31');
  t.same(proposeDocumentMetadata('Notes', 'Nothing dated here.'), { type: null, effectiveDate: null, expiryDate: null, version: null }, 'nothing guessed');
  t.equal(parseWrittenDate('February 30, 2025'), null, 'not a calendar date');
  t.equal(parseWrittenDate('3 Sept 2025'), '2025-09-03');
});

t.test('document metadata through the API', async (t) => {
  const ctx = await buildTestApp({ syncSchedulerIntervalSec: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  const analyst = await addOrgMember(app, owner, ws.orgId, 'analyst', { name: 'Vera Vendor-Owner' });
  const h = ws.headers;
  const today = new Date().toISOString().slice(0, 10);
  const socExpiry = addDays(today, 20);
  const dsId = await ingest(app, h, 'GitHub reports', [
    { title: 'GitHub SOC 2 Type II Report', content: `# GitHub SOC 2 Type II Report\n\nVersion 2.1\n\nThis report is valid until ${written(socExpiry)}.\n` },
    {
      title: 'GitHub Data Protection Agreement',
      content: '# GitHub Data Protection Agreement\n\nEffective date: March 1, 2025\n\nAudits are limited to SOC reports.\n',
    },
    { title: 'Meeting notes', content: '# Meeting notes\n\nNothing dated here.\n' },
  ]);
  const list = async (qs = '') => {
    const res = await app.inject({ method: 'GET', url: `${API}/document-metadata${qs}`, headers: h });
    t.equal(res.statusCode, 200, res.body);
    return res.json().data.documents as Record<string, any>[];
  };
  const patch = (id: string, payload: unknown) =>
    app.inject({ method: 'PATCH', url: `${API}/documents/${id}/metadata`, headers: h, payload: payload as object });

  // Proposals are written just after the ingestion commits (its afterIndexed step): wait for them, bounded.
  let docs = await list();
  for (let i = 0; i < 200 && docs.filter((d) => d.type).length < 2; i++) {
    await new Promise((r) => setTimeout(r, 50));
    docs = await list();
  }
  t.equal(docs.length, 3);
  const byTitle = Object.fromEntries(docs.map((d) => [d.title, d]));
  const soc = byTitle['GitHub SOC 2 Type II Report'];
  const dpa = byTitle['GitHub Data Protection Agreement'];
  t.match(soc, { type: 'soc_report', expiryDate: socExpiry, version: '2.1', expired: false, editedFields: [] }, 'proposed from the text');
  t.match(dpa, { type: 'dpa', effectiveDate: '2025-03-01', expiryDate: null });
  t.match(byTitle['Meeting notes'], { type: null, effectiveDate: null, expiryDate: null, version: null });

  t.same(
    (await list('?type=soc_report')).map((d) => d.title),
    ['GitHub SOC 2 Type II Report'],
    'filter by type',
  );
  const paged = await app.inject({ method: 'GET', url: `${API}/document-metadata?limit=1&page=2`, headers: h });
  t.same(
    paged.json().data.documents.map((d: any) => d.title),
    ['GitHub SOC 2 Type II Report'],
    'paged by title',
  );
  t.same(paged.json().data.pagination, { page: 2, limit: 1, total: 3, pages: 3, hasMore: true });
  t.same(
    (await list('?expiringWithinDays=30')).map((d) => d.title),
    ['GitHub SOC 2 Type II Report'],
    'expiring within 30 days',
  );
  t.same(await list('?expiringWithinDays=10'), []);

  // An analyst's edit, kept across a re-sync.
  const yesterday = addDays(today, -1);
  const edited = await patch(dpa.documentId, { expiryDate: yesterday, version: '3' });
  t.equal(edited.statusCode, 200, edited.body);
  t.match(edited.json().data.document, { expiryDate: yesterday, version: '3', expired: true, effectiveDate: '2025-03-01' });
  t.same([...edited.json().data.document.editedFields].sort(), ['expiryDate', 'version']);
  t.same(
    (await list('?expired=true')).map((d) => d.title),
    ['GitHub Data Protection Agreement'],
    'expired filter',
  );
  t.equal((await list('?expired=false')).length, 2);

  for (const [body, why] of [
    [{ expiryDate: '2025-02-30' }, 'not a calendar date'],
    [{ expiryDate: '2020-01-01' }, 'expiry before the effective date'],
    [{ type: 'bogus' }, 'unknown type'],
    [{}, 'nothing to change'],
    [{ colour: 'red' }, 'unknown field'],
  ] as const) {
    const res = await patch(dpa.documentId, body);
    t.equal(res.statusCode, 400, `${why}: ${res.body}`);
    t.equal(res.json().status, 'error');
  }
  t.equal((await patch('no-such-document', { version: '1' })).statusCode, 404);
  t.equal((await app.inject({ method: 'GET', url: `${API}/document-metadata?type=bogus`, headers: h })).statusCode, 400);

  const sync = await app.inject({ method: 'POST', url: `${API}/data-sources/${dsId}/sync`, headers: h });
  t.equal(sync.statusCode, 200, sync.body);
  for (let i = 0; i < 400; i++) {
    const s = (await app.inject({ method: 'GET', url: `${API}/data-sources/${dsId}`, headers: h })).json().data.dataSource;
    if (s.status === 'ready' && i > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const after = Object.fromEntries((await list()).map((d) => [d.title, d]));
  t.match(after['GitHub Data Protection Agreement'], { expiryDate: yesterday, version: '3', effectiveDate: '2025-03-01' }, 'edits survive a re-sync');

  // The portfolio KPI and the inventory filter.
  const kpis = (await app.inject({ method: 'GET', url: `${API}/analytics/kpis`, headers: owner.headers })).json().data.kpis;
  const expiredKpi = kpis.find((k: any) => k.key === 'documentsExpired');
  t.match(expiredKpi, { value: 1, query: 'documents=expired' }, 'one vendor with an expired document');
  const inv = await app.inject({ method: 'GET', url: `${API}/workspaces?${expiredKpi.query}`, headers: owner.headers });
  t.same(
    inv.json().data.workspaces.map((w: any) => w.workspaceName),
    ['GitHub'],
    'the KPI link lists it',
  );

  // Expiry notices: to the vendor owner, once per expiry date.
  const set = await app.inject({ method: 'PATCH', url: `${API}/workspaces/${ws.workspaceId}`, headers: owner.headers, payload: { vendorOwnerId: analyst.id } });
  t.equal(set.statusCode, 200, set.body);
  const sentBefore = app.mailer.sent.length;
  const first = await app.services.documentMetadata.notifyExpiring();
  t.equal(first.notified, 2, 'the SOC report expiring in 20 days and the expired DPA');
  const mails = app.mailer.sent.slice(sentBefore);
  t.same(
    mails.map((m) => m.to),
    [analyst.email, analyst.email],
    'e-mailed to the vendor owner',
  );
  t.ok(mails.some((m) => m.subject.startsWith('Document expires soon: GitHub SOC 2 Type II Report')));
  t.ok(mails.some((m) => m.subject.startsWith('Document expired: GitHub Data Protection Agreement')));
  const notes = await app.inject({ method: 'GET', url: `${API}/notifications`, headers: analyst.headers });
  t.equal(notes.statusCode, 200, notes.body);
  const expiring = notes.json().data.notifications.filter((n: any) => n.type === 'document_expiring');
  t.equal(expiring.length, 2, 'two notifications for the vendor owner');
  const ownerNotes = (await app.inject({ method: 'GET', url: `${API}/notifications`, headers: owner.headers })).json().data.notifications;
  t.equal(ownerNotes.filter((n: any) => n.type === 'document_expiring').length, 0, 'not for the workspace owner when a vendor owner is named');
  t.equal((await app.services.documentMetadata.notifyExpiring()).notified, 0, 'told once');
  t.equal((await patch(soc.documentId, { expiryDate: addDays(today, 25) })).statusCode, 200);
  t.equal((await app.services.documentMetadata.notifyExpiring()).notified, 1, 'a new expiry date is told again');
  t.equal((await patch(soc.documentId, { expiryDate: addDays(today, 200) })).statusCode, 200);
  t.equal((await app.services.documentMetadata.notifyExpiring()).notified, 0, 'not before the notice period');

  // A vendor owner whose access was withdrawn is not told: the workspace owner is.
  const removed = await app.inject({ method: 'DELETE', url: `${API}/workspaces/${ws.workspaceId}/members/${analyst.id}`, headers: owner.headers });
  t.equal(removed.statusCode, 200, removed.body);
  t.equal((await patch(soc.documentId, { expiryDate: addDays(today, 5) })).statusCode, 200);
  const before = app.mailer.sent.length;
  t.equal((await app.services.documentMetadata.notifyExpiring()).notified, 1);
  t.same(
    app.mailer.sent.slice(before).map((m) => m.to),
    [owner.email],
    'e-mailed to the workspace owner',
  );
});
