import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createAssessment } from '../helpers/assessments.js';
import { connectSse } from '../helpers/sse.js';
import { addOrgMember, createOrg, createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

// Each change of an assessment's status reaches the open streams of the members who can read
// the vendor's assessments (`assessment:status`, docs/notifications.md): the dashboard follows
// an analysis without polling. Not stored, no id; a member without canViewSources and users of
// another organization hear nothing.
t.test('assessment status changes are pushed live to the members who can see them', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app, { name: 'Olivia Owner' });
  const orgId = await createOrg(app, owner, 'Acme Bank');
  const analyst = await addOrgMember(app, owner, orgId, 'analyst', { name: 'Ann Analyst' });
  const viewer = await addOrgMember(app, owner, orgId, 'viewer', { name: 'Vic Viewer' });
  const ws = await createWorkspace(app, owner, 'Nebula Cloud');
  const withdrawn = await app.inject({
    method: 'PATCH',
    url: `/api/v1/workspaces/${ws.id}/members/${viewer.id}`,
    headers: owner.headers,
    payload: { permissions: { canViewSources: false } },
  });
  t.equal(withdrawn.statusCode, 200, withdrawn.body);
  const outsider = await registerUser(app, { name: 'Otto Outsider' });
  await createOrgAndWorkspace(app, outsider, 'Elsewhere', 'Other Bank');

  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/notifications/stream`;
  const [a, v, o] = await Promise.all([analyst, viewer, outsider].map((s) => connectSse(base, s.headers)));
  t.teardown(() => [a, v, o].forEach((c) => c.close()));
  await Promise.all([a, v, o].map((c) => c.next('notification:count')));

  const res = await createAssessment(
    app,
    ws.headers,
    [
      {
        filename: 'security.md',
        content: Buffer.from('# Security\n\nIncidents are reported to the customer within 24 hours. Backups are encrypted.'),
        contentType: 'text/markdown',
      },
    ],
    { name: 'Live review' },
  );
  t.equal(res.statusCode, 201, res.body);
  const id: string = res.json().data.assessment.id;

  const seen: string[] = [];
  let last: Record<string, unknown> = {};
  while (!['completed', 'failed'].includes(seen.at(-1) ?? '')) {
    last = (await a.next('assessment:status', 60_000)).data as Record<string, unknown>;
    if (last.id === id) seen.push(String(last.status));
  }
  t.same(seen, ['pending', 'running', 'completed'], 'pending -> running -> completed, in order, without polling');
  t.match(last, { id, workspaceId: ws.id, name: 'Live review', status: 'completed', score: Number, riskRating: String, error: null, completedAt: String });
  t.type(last.timestamp, 'number');
  const stored = (await app.inject({ method: 'GET', url: `/api/v1/assessments/${id}`, headers: ws.headers })).json().data.assessment;
  t.match(stored, { status: 'completed', score: last.score, riskRating: last.riskRating }, 'the event says what the API then answers');

  const del = await app.inject({ method: 'DELETE', url: `/api/v1/assessments/${id}`, headers: ws.headers });
  t.equal(del.statusCode, 200, del.body);
  t.match((await a.next('assessment:status', 10_000)).data, { id, workspaceId: ws.id, status: 'deleted' }, 'a deletion is announced');
  t.same(
    v.events.filter((e) => e.event === 'assessment:status'),
    [],
    'a member without canViewSources is not told',
  );
  t.same(
    o.events.filter((e) => e.event === 'assessment:status'),
    [],
    'nor is anyone outside the workspace',
  );
  t.notOk(
    a.events.some((e) => e.event === 'assessment:status' && e.id),
    'status events carry no id (not stored)',
  );
});
