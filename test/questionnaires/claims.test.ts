import t from 'tap';
import { DORA_TEMPLATE } from '../../src/compliance/questionnaire-template.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { tokenFromMail } from '../helpers/questionnaires.js';
import { ingest, vendorDoc } from '../helpers/rag.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Vendor claims checked against the vendor's documents (docs/questionnaires.md, "Claims checked
 * against the documents"): GitHub answers "yes" to everything, including unrestricted audit
 * rights (CIF-06); its DPA gives SOC reports instead of audits, so the answer is flagged with
 * that passage; completing then takes a reviewer note.
 */

const API = '/api/v1';
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** "Yes" to every yes/no question, and a valid answer to every other one. */
function yesToEverything() {
  return DORA_TEMPLATE.questions.map((q) => {
    switch (q.type) {
      case 'yes_no':
        return { questionId: q.id, value: 'yes' };
      case 'number':
        return { questionId: q.id, value: q.max !== undefined && q.max <= 100 ? q.max : (q.min ?? 0) + 1 };
      case 'date':
        return { questionId: q.id, value: daysAgo(30) };
      case 'choice':
        return { questionId: q.id, value: q.multiple ? [q.options![0]!.value] : q.options![0]!.value };
      default:
        return { questionId: q.id, value: `Answer to ${q.id}` };
    }
  });
}

type Claim = {
  answer: string;
  verdict: string;
  obligations: { id: string; ref: string; verdict: string; limitations: string[]; passages: { document: string; quote: string; role: string }[] }[];
};
type Q = { id: string; type: string; answer: { value: unknown } | null; claim: Claim | null };

t.test("a 'yes' to full audit rights on GitHub's documents is flagged with the DPA's SOC-report limitation", async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  await app.services.dataSources.indexCorpus();
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub', 'Acme Bank');
  const H = ws.headers;
  await ingest(app, H, 'GitHub contract', [
    { title: 'GitHub Corporate Terms of Service', content: vendorDoc('github/github-corporate-terms-of-service.md') },
    { title: 'GitHub Data Protection Agreement', content: vendorDoc('github/github-data-protection-agreement.md') },
  ]);

  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: { template: 'dora-ict-tpp', vendorContact: { email: 'security@github.example' }, send: true },
  });
  t.equal(created.statusCode, 201, created.body);
  const q0 = created.json().data.questionnaire;
  // The link is in the send's response (to copy), and it is the one the vendor was mailed.
  const token = tokenFromMail(app, 'security@github.example');
  t.ok(q0.link.url, 'the send response shows the link');
  t.equal(new URL(q0.link.url).searchParams.get('token'), token, 'the shown link is the mailed one');
  t.same(q0.claims, { checked: true, flagged: 0 }, 'nothing answered, nothing flagged');

  const again = await app.inject({ method: 'GET', url: `${API}/questionnaires/${q0.id}`, headers: H });
  t.equal(again.json().data.questionnaire.link.url, null, 'the link is not shown again (only its hash is stored)');

  const saved = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: yesToEverything(), submit: true },
  });
  t.equal(saved.statusCode, 200, saved.body);
  t.notOk(JSON.stringify(saved.json()).includes('"claim'), 'the vendor never sees the flags');

  const res = await app.inject({ method: 'GET', url: `${API}/questionnaires/${q0.id}`, headers: H });
  t.equal(res.statusCode, 200, res.body);
  const q = res.json().data.questionnaire;
  const questions = q.questions as Q[];
  const flagged = questions.filter((x) => x.claim);
  const yes = questions.filter((x) => x.type === 'yes_no');
  t.ok(q.claims.checked, "the vendor's documents were read");
  t.equal(q.claims.flagged, flagged.length, 'the count is the number of flagged answers');
  t.ok(flagged.length > 0 && flagged.length < yes.length, `some but not all of ${yes.length} "yes" answers are flagged (${flagged.length})`);
  t.ok(
    questions.filter((x) => x.claim).every((x) => x.answer?.value === 'yes'),
    'only a "yes" is flagged',
  );

  const audit = questions.find((x) => x.id === 'CIF-06')!;
  t.ok(audit.claim, 'the "yes" to unrestricted audit rights is flagged');
  const audits = audit.claim!.obligations.filter((o) => o.id === 'A28.6' || o.id === 'A30.3.e');
  t.ok(audits.length > 0, `read as the audit obligations: ${audit.claim!.obligations.map((o) => o.id).join(', ')}`);
  const passages = audits.flatMap((o) => o.passages);
  // "GitHub will provide … SOC1, type 2 and SOC2, type2 audit reports upon Customer request. Customer agrees that any
  // information and audit rights … will be satisfied by these compliance reports …"
  const soc = passages.find((p) => /audit rights[^.]*satisfied by these compliance reports/.test(p.quote));
  t.ok(soc, `the DPA's SOC-report passage is beside the answer: ${passages.map((p) => `${p.role}: ${p.quote}`).join(' | ')}`);
  t.equal(soc?.role, 'limitation', 'shown as the clause that limits the claim');
  t.match(soc?.document, /Data Protection Agreement/);
  t.ok(
    audits.some((o) => o.limitations.some((l) => /report/i.test(l))),
    `the limitation says reports stand in for audits: ${audits.flatMap((o) => o.limitations).join(' | ')}`,
  );

  // Completing over flagged answers takes a reviewer note.
  const bare = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${q0.id}`, headers: H, payload: { status: 'complete' } });
  t.equal(bare.statusCode, 400, bare.body);
  t.equal(bare.json().error.code, 'VALIDATION_ERROR');
  t.match(bare.json().error.details[0], /^reviewerNotes: is required to complete/);
  const blank = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q0.id}`,
    headers: H,
    payload: { status: 'complete', reviewerNotes: '   ' },
  });
  t.equal(blank.statusCode, 400, 'a blank note is no note');
  const still = await app.inject({ method: 'GET', url: `${API}/questionnaires/${q0.id}`, headers: H });
  t.equal(still.json().data.questionnaire.status, 'submitted', 'nothing was completed');

  const note = 'Audit rights limited to SOC reports in the DPA: contract addendum requested.';
  const done = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q0.id}`,
    headers: H,
    payload: { status: 'complete', reviewerNotes: note },
  });
  t.equal(done.statusCode, 200, done.body);
  t.equal(done.json().data.questionnaire.status, 'complete');
  t.equal(done.json().data.questionnaire.reviewerNotes, note, 'the note is stored and shown');
});

t.test('without documents nothing is checked, and completing needs no note', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Basecamp', 'Acme Bank');
  const H = ws.headers;
  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: { template: 'dora-ict-tpp', vendorContact: { email: 'ops@basecamp.example' }, send: true },
  });
  t.equal(created.statusCode, 201, created.body);
  const id = created.json().data.questionnaire.id;
  const token = tokenFromMail(app, 'ops@basecamp.example');
  const saved = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: yesToEverything(), submit: true },
  });
  t.equal(saved.statusCode, 200, saved.body);
  const q = (await app.inject({ method: 'GET', url: `${API}/questionnaires/${id}`, headers: H })).json().data.questionnaire;
  t.same(q.claims, { checked: false, flagged: 0 }, 'no documents: not checked');
  t.ok(
    (q.questions as Q[]).every((x) => x.claim === null),
    'no flags',
  );
  const done = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${id}`, headers: H, payload: { status: 'complete' } });
  t.equal(done.statusCode, 200, done.body);
});
