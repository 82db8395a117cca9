import t from 'tap';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { tokenFromMail } from '../helpers/questionnaires.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const API = '/api/v1';

t.test('custom questions: validation and exact scores for every answer type', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Acme Cloud');
  const H = ws.headers;

  const invalid = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: {
      title: 'Bad',
      questions: [
        { text: 'Pick', type: 'choice' },
        { text: 'How many?', type: 'number' },
        { text: 'Essay', type: 'text', weight: 2 },
        { text: 'In section', type: 'yes_no', sectionId: 'nowhere' },
      ],
    },
  });
  t.equal(invalid.statusCode, 400);
  t.same(invalid.json().error.details, [
    'questions.0.options: choice questions need at least 2 options',
    'questions.1.scoring: a scored number question needs a scoring rule (or weight 0)',
    'questions.2.weight: text questions are not scored (weight must be 0)',
    'questions.3.sectionId: unknown section nowhere',
  ]);
  const schemaBad = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: { title: 'x', questions: [{ text: 'q', type: 'essay' }], articles: 1 },
  });
  t.equal(schemaBad.statusCode, 400);
  t.equal(schemaBad.json().error.code, 'VALIDATION_ERROR');
  const noQuestions = await app.inject({ method: 'POST', url: `${API}/questionnaires`, headers: H, payload: { title: 'Empty' } });
  t.equal(noQuestions.statusCode, 400);
  const unknownTemplate = await app.inject({ method: 'POST', url: `${API}/questionnaires`, headers: H, payload: { template: 'iso-27001' } });
  t.equal(unknownTemplate.statusCode, 400);
  const sendWithoutContact = await app.inject({ method: 'POST', url: `${API}/questionnaires`, headers: H, payload: { template: 'dora-ict-tpp', send: true } });
  t.equal(sendWithoutContact.statusCode, 400);
  t.same(sendWithoutContact.json().error.details, ['vendorContact.email: is required to send the questionnaire']);
  t.equal(
    (await app.inject({ method: 'GET', url: `${API}/questionnaires`, headers: H })).json().data.pagination.total,
    0,
    'nothing created by failed requests',
  );

  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: {
      title: 'Custom',
      vendorContact: { email: 'vendor@acme.example' },
      sections: [
        { id: 'a', title: 'A', weight: 2 },
        { id: 'b', title: 'B', weight: 1 },
      ],
      questions: [
        { id: 'yn', sectionId: 'a', text: 'Yes or no?', type: 'yes_no', weight: 2, articles: ['Article 30'] },
        { id: 'num', sectionId: 'a', text: 'Hours?', type: 'number', weight: 1, min: 0, scoring: { kind: 'range', best: 4, worst: 24 } },
        {
          id: 'pick',
          sectionId: 'b',
          text: 'Pick several',
          type: 'choice',
          multiple: true,
          options: [
            { value: 'x', label: 'X', score: 0.25 },
            { value: 'y', label: 'Y', score: 0.75 },
            { value: 'z', label: 'Z' },
          ],
        },
        { id: 'cert', sectionId: 'b', text: 'Certificate valid until', type: 'date', required: false, scoring: { kind: 'validity', fullFromDays: 100 } },
        { id: 'free', sectionId: 'b', text: 'Anything else?', type: 'text', required: false },
      ],
      send: true,
    },
  });
  t.equal(created.statusCode, 201, created.body);
  const q = created.json().data.questionnaire;
  const token = tokenFromMail(app, 'vendor@acme.example');
  const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

  const multiBad = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: {
      answers: [
        { questionId: 'pick', value: 'x' },
        { questionId: 'num', value: -1 },
      ],
    },
  });
  t.same(multiBad.json().error.details, ['answers.0.value: must be a non-empty array of: x, y, z', 'answers.1.value: must be at least 0']);

  const res = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: {
      answers: [
        { questionId: 'yn', value: 'partial' },
        { questionId: 'num', value: 9 },
        { questionId: 'pick', value: ['x', 'y'] },
        { questionId: 'cert', value: inDays(50) },
        { questionId: 'free', value: '  trimmed  ' },
      ],
      submit: true,
    },
  });
  t.equal(res.statusCode, 200, res.body);
  t.equal(res.json().data.questionnaire.questions.find((x: { id: string }) => x.id === 'free').answer.value, 'trimmed');

  const d = (await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H })).json().data.questionnaire;
  // a: (2 x 0.5 + 1 x (24 - 9) / 20) / 3 = 1.75 / 3 = 58.33 -> 58.3
  // b: pick = best of 0.25, 0.75 = 0.75; cert = 50 / 100 = 0.5 -> (0.75 + 0.5) / 2 = 62.5
  // total: (2 x 58.333 + 1 x 62.5) / 3 = 59.72 -> 59.7
  t.same(
    d.scoring.sections.map((x: { sectionId: string; score: number }) => [x.sectionId, x.score]),
    [
      ['a', 58.3],
      ['b', 62.5],
    ],
  );
  t.equal(d.scoring.total, 59.7);
  t.match(
    d.questions.find((x: { id: string }) => x.id === 'free'),
    { points: null, basis: 'unscored' },
  );

  // Reviewer score override and clearing it again.
  const ov = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: { reviews: [{ questionId: 'yn', overrideScore: 1 }] },
  });
  t.equal(ov.statusCode, 200);
  // a: (2 + 0.75) / 3 = 91.67; total (2 x 91.667 + 62.5) / 3 = 81.9
  t.equal(ov.json().data.questionnaire.scoring.total, 81.9);
  const badOv = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: {
      reviews: [
        { questionId: 'free', overrideScore: 1 },
        { questionId: 'num', overrideValue: 'fast' },
        { questionId: 'zzz', note: 'x' },
      ],
    },
  });
  t.equal(badOv.statusCode, 400);
  t.same(badOv.json().error.details, [
    'reviews.0.overrideScore: question free is not scored (weight 0)',
    'reviews.1.overrideValue: must be a number',
    'reviews.2.questionId: unknown question zzz',
  ]);
  const clear = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: { reviews: [{ questionId: 'yn', overrideScore: null }] },
  });
  t.equal(clear.json().data.questionnaire.scoring.total, 59.7);

  // Nullable fields clear (never coerced to 0 or "").
  const setDue = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: { dueDate: '2031-06-30', description: 'About backups', reviewerNotes: 'n' },
  });
  t.match(setDue.json().data.questionnaire, { dueDate: '2031-06-30', description: 'About backups', reviewerNotes: 'n' });
  const clearDue = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: { dueDate: null, description: null, reviewerNotes: null },
  });
  t.match(clearDue.json().data.questionnaire, { dueDate: null, description: null, reviewerNotes: null });
  const badDue = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${q.id}`, headers: H, payload: { dueDate: '31/12/2030' } });
  t.equal(badDue.statusCode, 400);
  t.equal((await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${q.id}`, headers: H, payload: {} })).statusCode, 400, 'empty PATCH');

  // Returning the questionnaire to the vendor makes the same link writable again.
  const back = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${q.id}`, headers: H, payload: { status: 'in_progress' } });
  t.equal(back.statusCode, 200);
  const fix = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: [{ questionId: 'yn', value: 'yes' }], submit: true },
  });
  t.equal(fix.statusCode, 200);
  const d2 = (await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H })).json().data.questionnaire;
  t.equal(d2.scoring.total, 81.9);
});

t.test('draft question edits replace the question set and drop answers of removed questions', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Draft vendor');
  const H = ws.headers;
  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: { template: 'dora-ict-tpp', templateSections: ['info_sharing'] },
  });
  const q = created.json().data.questionnaire;
  t.same(
    q.questions.map((x: { id: string }) => x.id),
    ['INF-01', 'INF-02'],
  );
  // Reviewer-side rows exist for draft questions once pre-fill or reviews wrote them; simulate with a suggestion row.
  await queryRows(
    ctx.database.db,
    sql`insert into questionnaire_answers (questionnaire_id, question_id, suggestion) values (${q.id}, 'INF-02', '{"value":"yes","rationale":"r","citations":[],"createdAt":"2026-01-01T00:00:00Z"}'::jsonb)`,
  );
  const edited = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: { template: 'dora-ict-tpp', templateSections: ['info_sharing'], questions: [{ id: 'INF-02', text: 'Clash', type: 'yes_no' }] },
  });
  t.equal(edited.statusCode, 400, 'custom ids must not clash with template ids');
  t.same(edited.json().error.details, ['questions.0.id: duplicate question id INF-02']);
  const replaced = await app.inject({
    method: 'PATCH',
    url: `${API}/questionnaires/${q.id}`,
    headers: H,
    payload: { title: 'Only custom', questions: [{ text: 'Do you encrypt data at rest?', type: 'yes_no' }] },
  });
  t.equal(replaced.statusCode, 200, replaced.body);
  const r = replaced.json().data.questionnaire;
  t.equal(r.template, null);
  t.same(
    r.questions.map((x: { id: string }) => x.id),
    ['Q-1'],
  );
  t.same(
    r.sections.map((x: { id: string }) => x.id),
    ['custom'],
  );
  t.equal(
    (await queryRows(ctx.database.db, sql`select 1 from questionnaire_answers where questionnaire_id = ${q.id}`)).length,
    0,
    'rows of removed questions dropped',
  );
});
