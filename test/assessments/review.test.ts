import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createAssessment, docxText, vendorDocs, waitForAssessment } from '../helpers/assessments.js';
import { addOrgMember, createOrgAndWorkspace, wsHeaders } from '../helpers/workspaces.js';

type Result = {
  obligationId: string;
  status: string;
  coverage: number;
  key: boolean;
  analyst?: { status: string; engineStatus: string; reason: string; userName: string } | null;
};

t.test("the analyst's verdict: override, comment, withdraw, sign-off, read-only, report", async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app, { name: 'Olga Owner' });
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  const created = await createAssessment(
    app,
    ws.headers,
    vendorDocs('github', ['github-data-protection-agreement.md', 'github-corporate-terms-of-service.md']),
  );
  t.equal(created.statusCode, 201, created.body);
  const id = created.json().data.assessment.id;
  const done = await waitForAssessment(app, ws.headers, id);
  t.equal(done.status, 'completed');
  t.equal(done.signOff, null, 'not signed off yet');
  t.same(done.reviews, []);

  const analyst = await addOrgMember(app, owner, ws.orgId, 'analyst', { name: 'Ana Lyst' });
  const ah = wsHeaders(analyst, ws.workspaceId);
  const viewer = await addOrgMember(app, owner, ws.orgId, 'viewer');
  const vh = wsHeaders(viewer, ws.workspaceId);

  // Pick a result the engine did not call missing, and set it to missing: the score must drop.
  const target = (done.results as Result[]).find((r) => r.key && r.status !== 'missing');
  if (!target) throw new Error('no key result with evidence');
  const url = `/api/v1/assessments/${id}/results/${target.obligationId}/verdict`;

  // Viewers cannot decide; bad bodies are 400; unknown obligations 404.
  t.equal((await app.inject({ method: 'PUT', url, headers: vh, payload: { status: 'missing', reason: 'x' } })).statusCode, 403);
  const bad = await app.inject({ method: 'PUT', url, headers: ah, payload: { status: 'unknown', reason: 'x' } });
  t.equal(bad.statusCode, 400, bad.body);
  t.equal((await app.inject({ method: 'PUT', url, headers: ah, payload: { status: 'missing', reason: '   ' } })).statusCode, 400, 'a blank reason');
  t.equal((await app.inject({ method: 'PUT', url, headers: ah, payload: { status: 'missing' } })).statusCode, 400, 'no reason');
  const unknown = await app.inject({
    method: 'PUT',
    url: `/api/v1/assessments/${id}/results/A99.9/verdict`,
    headers: ah,
    payload: { status: 'missing', reason: 'x' },
  });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'OBLIGATION_NOT_FOUND');

  const set = await app.inject({
    method: 'PUT',
    url,
    headers: ah,
    payload: { status: 'missing', reason: 'The clause quoted binds the customer, not GitHub.' },
  });
  t.equal(set.statusCode, 200, set.body);
  const out = set.json().data;
  t.equal(out.result.status, 'missing');
  t.equal(out.result.coverage, 0);
  t.equal(out.result.analyst.status, 'missing');
  t.equal(out.result.analyst.engineStatus, target.status, "the engine's status is kept");
  t.equal(out.result.analyst.userName, 'Ana Lyst');
  t.ok(out.assessment.score < done.score, `score ${done.score} -> ${out.assessment.score}`);
  t.equal(out.assessment.summary.engineScore, done.score);
  t.equal(out.assessment.summary.analystVerdicts, 1);
  t.ok(
    out.assessment.summary.missingKey.includes(
      (done.results as { obligationId: string; ref: string }[]).find((r) => r.obligationId === target.obligationId)!.ref,
    ),
  );
  t.equal(out.review.kind, 'verdict');
  t.equal(out.review.previousStatus, target.status);

  // The detail, the list and the viewer all read the analyst's status.
  const detail = (await app.inject({ method: 'GET', url: `/api/v1/assessments/${id}`, headers: vh })).json().data.assessment;
  const shown = (detail.results as Result[]).find((r) => r.obligationId === target.obligationId)!;
  t.equal(shown.status, 'missing');
  t.equal(detail.score, out.assessment.score);
  const listed = (await app.inject({ method: 'GET', url: '/api/v1/assessments', headers: vh })).json().data.assessments[0];
  t.equal(listed.score, out.assessment.score);
  t.equal(listed.summary.missing, done.summary.missing + 1);

  // A comment keeps the status.
  const c = await app.inject({
    method: 'POST',
    url: `/api/v1/assessments/${id}/results/${target.obligationId}/comments`,
    headers: ah,
    payload: { text: 'Asked GitHub for the enterprise addendum.' },
  });
  t.equal(c.statusCode, 201, c.body);

  // Withdrawn: the engine's status and score are back; withdrawing twice is a conflict.
  const cleared = await app.inject({ method: 'DELETE', url, headers: ah, payload: { reason: 'The addendum arrived.' } });
  t.equal(cleared.statusCode, 200, cleared.body);
  t.equal(cleared.json().data.result.status, target.status);
  t.equal(cleared.json().data.result.coverage, target.coverage);
  t.equal(cleared.json().data.result.analyst, null);
  t.equal(cleared.json().data.assessment.score, done.score);
  const again = await app.inject({ method: 'DELETE', url, headers: ah });
  t.equal(again.statusCode, 409);
  t.equal(again.json().error.code, 'NO_ANALYST_VERDICT');

  // Set again, then sign off.
  t.equal((await app.inject({ method: 'PUT', url, headers: ah, payload: { status: 'partial', reason: 'Limited to SOC reports.' } })).statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: `/api/v1/assessments/${id}/sign-off`, headers: vh, payload: { note: 'x' } })).statusCode, 403);
  t.equal((await app.inject({ method: 'POST', url: `/api/v1/assessments/${id}/sign-off`, headers: ah, payload: {} })).statusCode, 400, 'a note is required');
  const signed = await app.inject({
    method: 'POST',
    url: `/api/v1/assessments/${id}/sign-off`,
    headers: ah,
    payload: { note: 'Reviewed against the DPA and Corporate Terms; follow-up on audit rights.' },
  });
  t.equal(signed.statusCode, 200, signed.body);
  const so = signed.json().data.assessment.signOff;
  t.equal(so.userName, 'Ana Lyst');
  t.match(so.note, /follow-up on audit rights/);

  // Read-only from then on: no verdict, no comment, no second sign-off, no deletion.
  for (const [method, u, payload] of [
    ['PUT', url, { status: 'covered', reason: 'x' }],
    ['DELETE', url, undefined],
    ['POST', `/api/v1/assessments/${id}/results/${target.obligationId}/comments`, { text: 'late' }],
    ['POST', `/api/v1/assessments/${id}/sign-off`, { note: 'again' }],
    ['DELETE', `/api/v1/assessments/${id}`, undefined],
  ] as const) {
    const res = await app.inject({ method, url: u, headers: ah, ...(payload ? { payload } : {}) });
    t.equal(res.statusCode, 409, `${method} ${u} after sign-off`);
    t.equal(res.json().error.code, 'ASSESSMENT_SIGNED_OFF');
  }

  // The trail holds every step in order, with who did it.
  const trail = (await app.inject({ method: 'GET', url: `/api/v1/assessments/${id}/reviews`, headers: vh })).json().data.reviews;
  t.same(
    trail.map((r: { kind: string }) => r.kind),
    ['verdict', 'comment', 'clear', 'verdict', 'sign_off'],
  );
  t.ok(trail.every((r: { userName: string }) => r.userName === 'Ana Lyst'));

  // The Word report carries the analyst's verdict, the comment and the sign-off.
  const report = await app.inject({ method: 'GET', url: `/api/v1/assessments/${id}/report`, headers: vh });
  t.equal(report.statusCode, 200);
  const text = await docxText(report.rawPayload);
  t.match(text, /Signed off by Ana Lyst on \d{4}-\d{2}-\d{2}: Reviewed against the DPA/);
  t.match(text, /Analyst's verdict: Partial \(engine: \w+\)\. Limited to SOC reports\./);
  t.match(text, /Comment: Asked GitHub for the enterprise addendum\./);
  t.match(text, /1 verdict is the analyst's/);
});

t.test('review steps on an assessment that has not completed, or of another workspace', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Basecamp');
  const created = await createAssessment(app, ws.headers, vendorDocs('basecamp', ['terms-of-service.md']));
  t.equal(created.statusCode, 201, created.body);
  const id = created.json().data.assessment.id;
  // No worker runs: the assessment stays pending.
  const res = await app.inject({
    method: 'PUT',
    url: `/api/v1/assessments/${id}/results/A28.6/verdict`,
    headers: ws.headers,
    payload: { status: 'partial', reason: 'x' },
  });
  t.equal(res.statusCode, 409);
  t.equal(res.json().error.code, 'ASSESSMENT_NOT_COMPLETE');
  const so = await app.inject({ method: 'POST', url: `/api/v1/assessments/${id}/sign-off`, headers: ws.headers, payload: { note: 'x' } });
  t.equal(so.json().error.code, 'ASSESSMENT_NOT_COMPLETE');

  const other = await registerUser(app);
  const otherWs = await createOrgAndWorkspace(app, other, 'Elsewhere', 'Other Bank');
  const foreign = await app.inject({
    method: 'PUT',
    url: `/api/v1/assessments/${id}/results/A28.6/verdict`,
    headers: otherWs.headers,
    payload: { status: 'partial', reason: 'x' },
  });
  t.equal(foreign.statusCode, 404, 'an assessment of another workspace is not found');
});
