import t from 'tap';
import { sql } from 'drizzle-orm';
import { DORA_TEMPLATE } from '../../src/compliance/questionnaire-template.js';
import { queryRows } from '../../src/db/client.js';
import { sha256 } from '../../src/lib/ids.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { tokenFromMail } from '../helpers/questionnaires.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const API = '/api/v1';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** The known answer set of docs/questionnaires.md (worked example). */
function knownAnswers() {
  const special: Record<string, unknown> = {
    'CON-03': 'no',
    'CON-05': 'partial',
    'CIF-05': 'na',
    'CON-11': 180,
    'CIF-02': 99.9,
    'CIF-09': 6,
    'TPR-02': 30,
    'ICT-07': 4,
    'INC-03': 24,
    'TST-02': daysAgo(100),
    'TST-04': 'planned',
  };
  const answers: { questionId: string; value: unknown }[] = [];
  for (const q of DORA_TEMPLATE.questions) {
    if (q.id in special) answers.push({ questionId: q.id, value: special[q.id] });
    else if (q.type === 'yes_no') answers.push({ questionId: q.id, value: 'yes' });
    else if (q.type === 'text' && q.required) answers.push({ questionId: q.id, value: `Answer to ${q.id}` });
  }
  return answers;
}

t.test('questionnaire lifecycle: template -> send -> vendor answers through the mailed link -> scores -> complete', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app, { name: 'Olivia Owner' });
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub', 'Acme Bank');
  const H = ws.headers;

  // Templates are documented through the API.
  const tpl = await app.inject({ method: 'GET', url: `${API}/questionnaire-templates`, headers: owner.headers });
  t.equal(tpl.statusCode, 200);
  const template = tpl.json().data.templates[0];
  t.equal(template.id, 'dora-ict-tpp');
  t.ok(
    template.questions.every((q: { articles: string[] }) => q.articles.length > 0),
    'every template question maps to DORA articles',
  );
  t.ok(template.questions.some((q: { references: string[] }) => q.references.includes('Art. 30(2)(b)')));
  t.ok(template.questions.some((q: { references: string[] }) => q.references.includes('Art. 30(3)(e)(i)')));

  // Create a draft from the template.
  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: { template: 'dora-ict-tpp', vendorContact: { email: 'Security@GitHub.example', name: 'Sam Vendor' }, dueDate: '2030-01-31' },
  });
  t.equal(created.statusCode, 201, created.body);
  const q = created.json().data.questionnaire;
  t.equal(q.status, 'draft');
  t.equal(q.title, DORA_TEMPLATE.title);
  t.same(q.template, { id: 'dora-ict-tpp', version: '1.0' });
  t.equal(q.questions.length, DORA_TEMPLATE.questions.length);
  t.equal(q.vendorContact.email, 'security@github.example');
  t.equal(q.link.active, false);
  t.equal(ctx.mailer.sent.length, 1, 'only the invitation-free flow so far: no questionnaire mail for a draft');

  // Send: draft -> sent, an e-mail with the tokenized link.
  const sent = await app.inject({ method: 'POST', url: `${API}/questionnaires/${q.id}/send`, headers: H });
  t.equal(sent.statusCode, 200, sent.body);
  t.equal(sent.json().data.questionnaire.status, 'sent');
  t.equal(sent.json().data.questionnaire.link.active, true);
  const mail = ctx.mailer.sent.at(-1)!;
  t.equal(mail.to, 'security@github.example');
  t.match(mail.subject, /Questionnaire from Acme Bank/);
  t.match(mail.text, `${ctx.config.publicUrl}/vendor-questionnaire?token=`);
  const token = tokenFromMail(app, 'security@github.example');
  t.ok(token.length >= 40);

  // The token is stored hashed only.
  const stored = await queryRows<{ token_hash: string }>(ctx.database.db, sql`select token_hash from questionnaires where id = ${q.id}`);
  t.equal(stored[0]!.token_hash, sha256(token));
  t.notOk(JSON.stringify(await queryRows(ctx.database.db, sql`select * from questionnaires`)).includes(token), 'raw token not stored');

  // Vendor opens the link without any account.
  const open = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` });
  t.equal(open.statusCode, 200, open.body);
  const vq = open.json().data.questionnaire;
  t.equal(vq.status, 'open');
  t.equal(vq.readOnly, false);
  t.equal(vq.requester, 'Acme Bank');
  t.equal(vq.questions.length, DORA_TEMPLATE.questions.length);
  for (const leaked of ['weight', 'scoring', 'points', 'score', 'reviewerNotes', 'review', 'vendorContact', 'workspaceId', 'createdBy']) {
    t.notOk(open.body.includes(`"${leaked}"`), `vendor view has no ${leaked}`);
  }
  t.notOk(open.body.includes(ws.workspaceId), 'no workspace id in the vendor view');
  t.notOk(open.body.includes('GitHub"'), 'no workspace name in the vendor view');

  // Draft save: sent -> in_progress.
  const all = knownAnswers();
  const half = all.slice(0, 10);
  const draft = await app.inject({ method: 'PUT', url: `${API}/vendor-questionnaires/${token}/answers`, payload: { answers: half } });
  t.equal(draft.statusCode, 200, draft.body);
  t.equal(draft.json().message, 'Answers saved');
  t.equal(draft.json().data.questionnaire.progress.answered, 10);
  const analystView = await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H });
  t.equal(analystView.json().data.questionnaire.status, 'in_progress');
  t.ok(analystView.json().data.questionnaire.link.firstOpenedAt);

  // Submitting with required answers missing fails and stores nothing.
  const early = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: [{ questionId: 'CON-01', value: 'no' }], submit: true },
  });
  t.equal(early.statusCode, 400);
  t.equal(early.json().error.code, 'VALIDATION_ERROR');
  t.ok(early.json().error.details.some((d: string) => d.startsWith('CIF-01: an answer is required')));
  const afterEarly = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` });
  t.equal(
    afterEarly.json().data.questionnaire.questions.find((x: { id: string }) => x.id === 'CON-01').answer.value,
    'yes',
    'nothing saved by the failed submit',
  );

  // Bad answer types: 400 naming each field, nothing saved.
  const bad = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: {
      answers: [
        { questionId: 'CON-01', value: 'maybe' },
        { questionId: 'CON-11', value: 'ninety' },
        { questionId: 'TST-02', value: '2024-02-30' },
        { questionId: 'TST-04', value: 'sometimes' },
        { questionId: 'NOPE', value: 'yes' },
        { questionId: 'CIF-02', value: 120 },
        { questionId: 'GEN-01', value: 42 },
      ],
    },
  });
  t.equal(bad.statusCode, 400);
  t.same(bad.json().error.details, [
    'answers.0.value: must be one of: yes, no, partial, na',
    'answers.1.value: must be a number',
    'answers.2.value: must be a date (YYYY-MM-DD)',
    'answers.3.value: must be one of: performed, pooled, planned, none, not_applicable',
    'answers.4.questionId: unknown question NOPE',
    'answers.5.value: must be at most 100',
    'answers.6.value: must be a string',
  ]);
  const future = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: [{ questionId: 'TST-02', value: '2999-01-01' }] },
  });
  t.equal(future.statusCode, 400);
  t.same(future.json().error.details, ['answers.0.value: must not be in the future']);
  const wrongShape = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: [{ questionId: 'CON-01', value: { yes: true } }] },
  });
  t.equal(wrongShape.statusCode, 400);

  // Full answer set + submit.
  const submit = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: all.map((a) => (a.questionId === 'GEN-03' ? { ...a, comment: 'Reach us 24/7' } : a)), submit: true },
  });
  t.equal(submit.statusCode, 200, submit.body);
  t.equal(submit.json().message, 'Questionnaire submitted');
  t.equal(submit.json().data.questionnaire.status, 'submitted');
  t.equal(submit.json().data.questionnaire.readOnly, true);
  t.notOk(submit.body.includes('"score"'));

  // The owner is notified that the vendor answered.
  const notes = await app.inject({ method: 'GET', url: `${API}/notifications?type=questionnaire_answered`, headers: owner.headers });
  t.equal(notes.statusCode, 200);
  t.match(notes.json().data.notifications, [{ type: 'questionnaire_answered', workspaceId: ws.workspaceId, data: { questionnaireId: q.id } }]);

  // Submitting twice: 409, the link stays readable (read-only).
  const again = await app.inject({ method: 'PUT', url: `${API}/vendor-questionnaires/${token}/answers`, payload: { answers: [], submit: true } });
  t.equal(again.statusCode, 409);
  t.equal(again.json().error.code, 'QUESTIONNAIRE_ALREADY_SUBMITTED');
  const readOnly = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` });
  t.equal(readOnly.statusCode, 200);
  t.equal(readOnly.json().data.questionnaire.readOnly, true);
  t.equal(readOnly.json().data.questionnaire.questions.find((x: { id: string }) => x.id === 'GEN-03').answer.comment, 'Reach us 24/7');

  // Analyst: scores per section and total, per the documented method.
  const scored = await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H });
  t.equal(scored.statusCode, 200);
  const s = scored.json().data.questionnaire;
  t.equal(s.status, 'submitted');
  t.equal(s.scoring.method, 'weighted-v1');
  t.equal(s.scoring.final, false);
  const bySection = Object.fromEntries(s.scoring.sections.map((x: { sectionId: string; score: number | null }) => [x.sectionId, x.score]));
  t.same(bySection, { general: null, contract: 79.5, critical: 96.5, third_party: 100, ict_risk: 100, incidents: 90.2, testing: 92.9, info_sharing: 100 });
  t.equal(s.scoring.total, 93);
  t.equal(s.score, 93);
  const qCIF05 = s.questions.find((x: { id: string }) => x.id === 'CIF-05');
  t.match(qCIF05, { points: null, basis: 'vendor', answer: { value: 'na' } });
  t.match(
    s.questions.find((x: { id: string }) => x.id === 'INC-03'),
    { points: 48 / 68, basis: 'vendor' },
  );

  // latestComplete: nothing complete yet.
  t.equal(await app.services.questionnaires.latestComplete(ws.workspaceId), null);

  // Reviewer override (CON-03 no -> yes) and completion in one PATCH: the score is frozen.
  const reviewed = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: {
      reviews: [{ questionId: 'CON-03', overrideValue: 'yes', note: 'Clause 4.2 of the DPA covers locations' }],
      reviewerNotes: 'Internal: fine',
      status: 'complete',
    },
  });
  t.equal(reviewed.statusCode, 200, reviewed.body);
  const r = reviewed.json().data.questionnaire;
  t.equal(r.status, 'complete');
  t.equal(r.scoring.final, true);
  // contract: (17.5 + 3) / 22 = 93.18 -> 93.2; total = (3 x 93.18 + 3 x 96.52 + 2 x 100 + 2 x 100 + 2 x 90.20 + 2 x 92.86 + 100) / 15 = 95.68 -> 95.7
  t.equal(r.scoring.sections.find((x: { sectionId: string }) => x.sectionId === 'contract').score, 93.2);
  t.equal(r.scoring.total, 95.7);
  t.match(
    r.questions.find((x: { id: string }) => x.id === 'CON-03'),
    { basis: 'override_value', points: 1, answer: { value: 'no' }, review: { overrideValue: 'yes' } },
  );
  const latest = await app.services.questionnaires.latestComplete(ws.workspaceId);
  t.match(latest, { id: q.id, title: DORA_TEMPLATE.title, score: 95.7 });
  t.ok(latest!.completedAt instanceof Date);
  const many = await app.services.questionnaires.latestCompleteMany([ws.workspaceId, 'no-such-workspace']);
  t.same([...many.keys()], [ws.workspaceId]);
  t.match(many.get(ws.workspaceId), { id: q.id, score: 95.7 });

  // The vendor never sees reviewer notes or overrides.
  const vendorAfter = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` });
  t.equal(vendorAfter.statusCode, 200);
  t.notOk(vendorAfter.body.includes('Internal: fine'));
  t.notOk(vendorAfter.body.includes('Clause 4.2'));
  t.equal(vendorAfter.json().data.questionnaire.status, 'submitted');

  // Reviews need the submitted state; complete -> submitted reopens the review.
  const lateReview = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: { reviews: [{ questionId: 'CON-01', overrideScore: 0 }] },
  });
  t.equal(lateReview.statusCode, 409);
  t.equal(lateReview.json().error.code, 'QUESTIONNAIRE_NOT_IN_REVIEW');
  const badMove = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${q.id}`, headers: H, payload: { status: 'draft' } });
  t.equal(badMove.statusCode, 409);
  t.equal(badMove.json().error.code, 'INVALID_STATUS_TRANSITION');
  const reopen = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${q.id}`, headers: H, payload: { status: 'submitted' } });
  t.equal(reopen.statusCode, 200);
  t.equal(reopen.json().data.questionnaire.scoring.final, false);
  t.equal(await app.services.questionnaires.latestComplete(ws.workspaceId), null, 'no longer complete');

  // List with pagination.
  const list = await app.inject({ method: 'GET', url: `${API}/questionnaires?limit=1`, headers: H });
  t.equal(list.statusCode, 200);
  t.same(list.json().data.pagination, { page: 1, limit: 1, total: 1, pages: 1, hasMore: false });
  t.match(list.json().data.questionnaires[0], { id: q.id, status: 'submitted', score: 95.7, progress: { questions: DORA_TEMPLATE.questions.length } });

  // Delete: the questionnaire and its link are gone.
  const del = await app.inject({ method: 'DELETE', url: `${API}/questionnaires/${q.id}`, headers: H });
  t.equal(del.statusCode, 200);
  t.equal(del.json().message, 'Questionnaire deleted');
  t.equal((await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H })).statusCode, 404);
  t.equal((await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` })).statusCode, 404);
  t.equal((await queryRows(ctx.database.db, sql`select 1 from questionnaire_answers where questionnaire_id = ${q.id}`)).length, 0, 'answers deleted');
});

t.test('vendor links: unknown, expired, resent, draft-only question edits', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Basecamp');
  const H = ws.headers;

  const unknown = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${'x'.repeat(43)}` });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'QUESTIONNAIRE_LINK_NOT_FOUND');
  t.equal((await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/short` })).statusCode, 404);
  t.equal((await app.inject({ method: 'PUT', url: `${API}/vendor-questionnaires/${'y'.repeat(43)}/answers`, payload: { answers: [] } })).statusCode, 404);

  // Custom questions, created and sent at once.
  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: {
      title: 'Short check',
      vendorContact: { email: 'ops@basecamp.example' },
      questions: [{ text: 'Do you encrypt backups?', type: 'yes_no', articles: ['Article 12'] }],
      send: true,
    },
  });
  t.equal(created.statusCode, 201, created.body);
  t.equal(created.json().message, 'Questionnaire created and sent');
  const q = created.json().data.questionnaire;
  t.equal(q.status, 'sent');
  t.equal(q.questions[0].id, 'Q-1');
  const token1 = tokenFromMail(app, 'ops@basecamp.example');

  // Questions can change only while draft.
  const edit = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: { questions: [{ text: 'New?', type: 'yes_no' }] },
  });
  t.equal(edit.statusCode, 409);
  t.equal(edit.json().error.code, 'QUESTIONNAIRE_NOT_EDITABLE');

  // Resend: a new link; the old one stops working.
  const resent = await app.inject({ method: 'POST', url: `${API}/questionnaires/${q.id}/send`, headers: H });
  t.equal(resent.statusCode, 200);
  t.equal(resent.json().data.questionnaire.link.sendCount, 2);
  const token2 = tokenFromMail(app, 'ops@basecamp.example');
  t.not(token2, token1);
  t.equal((await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token1}` })).statusCode, 404, 'old link dead');
  t.equal((await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token2}` })).statusCode, 200);

  // Expired link: 410 for reading and writing (time moved past the expiry).
  await queryRows(ctx.database.db, sql`update questionnaires set token_expires_at = now() - interval '1 second' where id = ${q.id}`);
  const expired = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token2}` });
  t.equal(expired.statusCode, 410);
  t.equal(expired.json().error.code, 'QUESTIONNAIRE_LINK_EXPIRED');
  const expiredPut = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token2}/answers`,
    payload: { answers: [{ questionId: 'Q-1', value: 'yes' }] },
  });
  t.equal(expiredPut.statusCode, 410);
  const detail = await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H });
  t.equal(detail.json().data.questionnaire.link.active, false);
  t.equal(detail.json().data.questionnaire.progress.answered, 0, 'nothing stored through an expired link');

  // Token lifetime is configurable: a resend issues a link valid for QUESTIONNAIRE_TOKEN_TTL_SEC.
  const before = Date.now();
  await app.inject({ method: 'POST', url: `${API}/questionnaires/${q.id}/send`, headers: H });
  const d2 = await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H });
  const exp = Date.parse(d2.json().data.questionnaire.link.expiresAt);
  t.ok(Math.abs(exp - before - ctx.config.questionnaireTokenTtlSec * 1000) < 60_000);
  t.equal((await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${tokenFromMail(app, 'ops@basecamp.example')}` })).statusCode, 200);
});
