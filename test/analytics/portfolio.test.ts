import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createAssessment, vendorDocs } from '../helpers/assessments.js';
import { tokenFromMail } from '../helpers/questionnaires.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

const API = '/api/v1';

// GET /analytics/portfolio (every accessible vendor with its tier, latest completed
// assessment and complete questionnaire) and the `unanswered` filter of /analytics/queries.
// docs/analytics.md.
t.test('vendor portfolio and unanswered questions', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const bc = await createWorkspace(app, owner, 'Basecamp', { vendorProfile: { criticalityTier: 'critical', supportsCriticalFunction: true } });
  const get = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url: `${API}${url}`, headers });

  // Before anything is assessed: every vendor "not assessed".
  const empty = await get('/analytics/portfolio', owner.headers);
  t.equal(empty.statusCode, 200, empty.body);
  t.same(empty.json().data.byRisk, { critical: 0, high: 0, medium: 0, low: 0, notAssessed: 2 });

  // A completed assessment of Basecamp (run here: no worker in this app), two for GitHub (the latest counts).
  const assess = async (headers: Record<string, string>, vendor: 'github' | 'basecamp', file: string) => {
    const res = await createAssessment(app, headers, vendorDocs(vendor, [file]));
    t.equal(res.statusCode, 201, res.body);
    const id = res.json().data.assessment.id as string;
    await app.services.assessments.analyze(id);
    return (await get(`/assessments/${id}`, headers)).json().data.assessment;
  };
  const bcA = await assess(bc.headers, 'basecamp', 'privacy-policy.md');
  await assess(gh.headers, 'github', 'github-subprocessors.md');
  const ghLatest = await assess(gh.headers, 'github', 'github-data-protection-agreement.md');
  t.equal(ghLatest.status, 'completed');

  // A complete questionnaire for GitHub: one question answered yes by the vendor, reviewed and completed.
  const q = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: gh.headers,
    payload: {
      title: 'Quick check',
      questions: [{ text: 'Do you encrypt data at rest?', type: 'yes_no' }],
      vendorContact: { email: 'security@github.example' },
      send: true,
    },
  });
  t.equal(q.statusCode, 201, q.body);
  const qid = q.json().data.questionnaire.id;
  const token = tokenFromMail(app, 'security@github.example');
  const answered = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: [{ questionId: 'Q-1', value: 'yes' }], submit: true },
  });
  t.equal(answered.statusCode, 200, answered.body);
  t.equal((await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${qid}`, headers: gh.headers, payload: { status: 'complete' } })).statusCode, 200);

  const res = await get('/analytics/portfolio', owner.headers);
  t.equal(res.statusCode, 200);
  const { vendors, byRisk } = res.json().data;
  t.same(
    vendors.map((v: { name: string }) => v.name),
    ['GitHub', 'Basecamp'],
  );
  const ghV = vendors[0];
  t.equal(ghV.assessment.id, ghLatest.id, 'the latest completed assessment counts');
  t.equal(ghV.assessment.score, ghLatest.score);
  t.equal(ghV.assessment.riskRating, ghLatest.riskRating);
  t.equal(ghV.assessment.covered, ghLatest.summary.covered);
  t.same([ghV.questionnaire.id, ghV.questionnaire.score], [qid, 100]);
  const bcV = vendors[1];
  t.same([bcV.criticalityTier, bcV.supportsCriticalFunction, bcV.questionnaire], ['critical', true, null]);
  t.equal(bcV.assessment.riskRating, bcA.riskRating);
  const expected = { critical: 0, high: 0, medium: 0, low: 0, notAssessed: 0 } as Record<string, number>;
  expected[ghLatest.riskRating] += 1;
  expected[bcA.riskRating] += 1;
  t.same(byRisk, expected, 'counts by risk rating');

  // A viewer of the organization sees the same portfolio; another organization sees its own only.
  const viewer = await addOrgMember(app, owner, gh.orgId, 'viewer');
  t.equal((await get('/analytics/portfolio', viewer.headers)).json().data.vendors.length, 2);
  const stranger = await registerUser(app);
  await createOrgAndWorkspace(app, stranger, 'Other', 'Other Bank');
  t.same(
    (await get('/analytics/portfolio', stranger.headers)).json().data.vendors.map((v: { name: string }) => v.name),
    ['Other'],
  );
  t.equal((await get('/analytics/portfolio', {})).statusCode, 401);
  const lonely = await registerUser(app);
  t.equal((await get('/analytics/portfolio', lonely.headers)).json().error.code, 'ONBOARDING_REQUIRED');

  // Unanswered questions: failed, aborted, or answered without a cited or relevant source.
  const log = (question: string, extra: Record<string, unknown>) =>
    app.services.analytics.logQuery({
      workspaceId: gh.workspaceId,
      userId: owner.id,
      endpoint: 'rag',
      question,
      generator: 'extractive',
      latencyMs: 10,
      status: 'answered',
      citedCount: 1,
      isRelevant: true,
      ...extra,
    } as never);
  await log('answered with a citation', {});
  await log('answered without a citation', { citedCount: 0 });
  await log('irrelevant sources', { isRelevant: false });
  await log('the model failed', { status: 'failed', errorCode: 'GENERATOR_UNAVAILABLE', citedCount: 0 });
  const all = await get('/analytics/queries', gh.headers);
  t.equal(all.json().data.pagination.total, 4);
  const un = await get('/analytics/queries?unanswered=true', gh.headers);
  t.equal(un.statusCode, 200, un.body);
  t.same(
    un
      .json()
      .data.queries.map((x: { question: string }) => x.question)
      .sort(),
    ['irrelevant sources', 'the model failed', 'answered without a citation'].sort(),
  );
  t.equal(un.json().data.pagination.total, 3);
  // The usage counts the same questions as unanswered (the dashboard shows both side by side).
  const usage = (await get('/analytics/usage', gh.headers)).json().data;
  t.match(usage.totals, { queries: 4, answered: 3, unanswered: 3 }, 'answered (an answer was produced) and unanswered (not from the sources)');
  t.same(
    usage.daily.map((d: { queries: number; unanswered: number }) => [d.queries, d.unanswered]),
    [[4, 3]],
    'per day too',
  );
  t.equal((await get('/analytics/queries?unanswered=maybe', gh.headers)).statusCode, 400);
  t.equal((await get('/analytics/queries?unanswered=true', wsHeaders(viewer, gh.workspaceId))).json().data.pagination.total, 0, 'a viewer sees only their own');
});
