import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser, testConfig, type Session } from '../helpers/app.js';
import { createAssessment, waitForAssessment } from '../helpers/assessments.js';
import { addOrgMember, createOrg, createWorkspace } from '../helpers/workspaces.js';

const ctx = await buildTestApp();
t.teardown(ctx.close);
const { app } = ctx;
const notifications = app.services.notifications;

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, session: Session, payload?: unknown) =>
  app.inject({ method, url: `/api/v1${url}`, headers: session.headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
const count = async (s: Session) => (await call('GET', '/notifications/count', s)).json().data.count as number;

const owner = await registerUser(app, { name: 'Olivia Owner' });
const orgId = await createOrg(app, owner, 'Acme Bank');
const analyst = await addOrgMember(app, owner, orgId, 'analyst', { name: 'Ann Analyst' });
const viewer = await addOrgMember(app, owner, orgId, 'viewer', { name: 'Vic Viewer' });
const outsider = await registerUser(app, { name: 'Otto Outsider' });
await createOrg(app, outsider, 'Other Bank');
const github = await createWorkspace(app, owner, 'GitHub');
const otherWs = await createWorkspace(app, outsider, 'Elsewhere');

t.test('authentication is required', async (t) => {
  for (const [method, url] of [
    ['GET', '/notifications/count'],
    ['GET', '/notifications'],
    ['PATCH', '/notifications/x'],
    ['POST', '/notifications/read-all'],
    ['GET', '/notifications/stream'],
  ] as const) {
    const res = await app.inject({ method, url: `/api/v1${url}`, payload: method === 'GET' ? undefined : {} });
    t.equal(res.statusCode, 401, `${method} ${url}`);
    t.equal(res.json().message, 'Authentication required');
  }
});

t.test('count, list, mark read, read-all; every user sees only their own', async (t) => {
  const me = await registerUser(app);
  const other = await registerUser(app);
  t.equal(await count(me), 0, 'a new user has nothing unread');
  const empty = await call('GET', '/notifications', me);
  t.same(empty.json().data, { notifications: [], unreadCount: 0, pagination: { page: 1, limit: 20, total: 0, pages: 0, hasMore: false, offset: 0 } });

  for (let i = 1; i <= 3; i++) {
    await notifications.notify({ userIds: [me.id], type: 'system', title: `Notice ${i}`, body: `Body ${i}`, data: { n: i } });
  }
  const [theirs] = await notifications.notify({ userIds: [other.id], type: 'system', title: 'Private to other' });

  const c = await call('GET', '/notifications/count', me);
  t.equal(c.statusCode, 200);
  t.same(c.json(), { status: 'success', data: { count: 3, unreadCount: 3 } });
  t.equal(await count(other), 1);

  const list = await call('GET', '/notifications?limit=2', me);
  t.equal(list.statusCode, 200);
  const page = list.json().data;
  t.same(
    page.notifications.map((n: { title: string }) => n.title),
    ['Notice 3', 'Notice 2'],
    'newest first',
  );
  t.same(page.pagination, { page: 1, limit: 2, total: 3, pages: 2, hasMore: true, offset: 0 });
  t.equal(page.unreadCount, 3);
  t.match(page.notifications[0], { type: 'system', body: 'Body 3', data: { n: 3 }, workspaceId: null, read: false, readAt: null, createdAt: String });
  const rest = (await call('GET', '/notifications?limit=2&offset=2', me)).json().data;
  t.same(
    rest.notifications.map((n: { title: string }) => n.title),
    ['Notice 1'],
  );
  t.equal(rest.pagination.hasMore, false);
  const second = (await call('GET', '/notifications?limit=2&page=2', me)).json().data;
  t.same(
    second.notifications.map((n: { title: string }) => n.title),
    ['Notice 1'],
    'page 2 is the same as offset 2',
  );
  t.same(second.pagination, { page: 2, limit: 2, total: 3, pages: 2, hasMore: false, offset: 2 });

  const id = page.notifications[1].id;
  const read = await call('PATCH', `/notifications/${id}`, me, {});
  t.equal(read.statusCode, 200, 'an empty body marks read');
  t.match(read.json().data, { notification: { id, read: true, readAt: String }, unreadCount: 2 });
  const firstReadAt = read.json().data.notification.readAt;
  const again = await call('PATCH', `/notifications/${id}`, me, { read: true });
  t.equal(again.json().data.notification.readAt, firstReadAt, 'marking read again keeps the first read time');
  t.equal(await count(me), 2);

  const unreadOnly = (await call('GET', '/notifications?unread=true', me)).json().data;
  t.same(
    unreadOnly.notifications.map((n: { title: string }) => n.title),
    ['Notice 3', 'Notice 1'],
  );
  t.equal(unreadOnly.pagination.total, 2);

  const unread = await call('PATCH', `/notifications/${id}`, me, { read: false });
  t.match(unread.json().data, { notification: { read: false, readAt: null }, unreadCount: 3 });

  // Someone else's notification does not exist for me, and is left untouched.
  const foreign = await call('PATCH', `/notifications/${theirs.id}`, me, { read: true });
  t.equal(foreign.statusCode, 404);
  t.same(foreign.json().error.code, 'NOTIFICATION_NOT_FOUND');
  t.equal(await count(other), 1, "the other user's notification is still unread");
  t.notOk(JSON.stringify((await call('GET', '/notifications', me)).json()).includes('Private to other'));
  t.equal((await call('PATCH', '/notifications/does-not-exist', me, {})).statusCode, 404);

  const all = await call('POST', '/notifications/read-all', me);
  t.equal(all.statusCode, 200);
  t.same(all.json(), { status: 'success', message: '3 notifications marked as read', data: { updated: 3, unreadCount: 0 } });
  t.equal((await call('POST', '/notifications/read-all', me, {})).json().data.updated, 0, 'nothing left to mark');
  t.equal(await count(me), 0);
  t.equal(await count(other), 1, 'read-all is per user');
});

t.test('a workspace notification reaches everyone with access, and nobody else', async (t) => {
  const before = { owner: await count(owner), analyst: await count(analyst), viewer: await count(viewer), outsider: await count(outsider) };
  const created = await notifications.notify({
    workspaceId: github.id,
    type: 'sync_completed',
    title: 'Sync finished: GitHub',
    body: '12 documents indexed',
    data: { dataSourceId: 'ds-1', documents: 12 },
  });
  t.equal(created.length, 3, 'owner, analyst and viewer of the organization');
  t.equal(await count(owner), before.owner + 1);
  t.equal(await count(analyst), before.analyst + 1);
  t.equal(await count(viewer), before.viewer + 1);
  t.equal(await count(outsider), before.outsider, 'another organization hears nothing');

  const item = (await call('GET', `/notifications?type=sync_completed&workspaceId=${github.id}`, analyst)).json().data.notifications;
  t.equal(item.length, 1);
  t.match(item[0], { type: 'sync_completed', workspaceId: github.id, title: 'Sync finished: GitHub', data: { documents: 12 } });

  // Given users are narrowed to those with access; excluded users are left out.
  const narrowed = await notifications.notify({
    workspaceId: github.id,
    userIds: [analyst.id, outsider.id],
    type: 'questionnaire_answered',
    title: 'Answered',
  });
  t.same(
    narrowed.map((n) => n.type),
    ['questionnaire_answered'],
  );
  t.equal(await count(outsider), before.outsider, 'a user without access to the workspace is not notified about it');
  const excluded = await notifications.notify({
    workspaceId: github.id,
    excludeUserIds: [owner.id],
    type: 'assessment_completed',
    title: 'Assessment complete',
  });
  t.equal(excluded.length, 2, 'everyone but the one who acted');

  // Read-all of one workspace leaves the others unread.
  await notifications.notify({ workspaceId: otherWs.id, type: 'sync_failed', title: 'Sync failed', body: 'timeout' });
  const o = await count(outsider);
  t.ok(o >= 1);
  const scoped = await call('POST', '/notifications/read-all', analyst, { workspaceId: github.id });
  t.equal(scoped.json().data.updated, 3);
  t.equal(await count(analyst), 0);
});

t.test('deleting a workspace removes its notifications', async (t) => {
  const ws = await createWorkspace(app, owner, 'Short-lived');
  await notifications.notify({ workspaceId: ws.id, type: 'system', title: 'About to go' });
  const before = await count(owner);
  const del = await app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${ws.id}`, headers: owner.headers });
  t.equal(del.statusCode, 200);
  t.equal(await count(owner), before - 1);
  const rows = await queryRows(ctx.database.db, sql`select count(*)::int as n from notifications where workspace_id = ${ws.id}`);
  t.equal(Number(rows[0].n), 0);
});

t.test('invitations notify a user who already has an account', async (t) => {
  const invitee = await registerUser(app, { name: 'Ivy Invitee' });
  t.equal(await count(invitee), 0);
  const inv = await call('POST', `/organizations/${orgId}/invite`, owner, { email: invitee.email, role: 'analyst' });
  t.equal(inv.statusCode, 201);
  const list = (await call('GET', '/notifications', invitee)).json().data.notifications;
  t.equal(list.length, 1);
  t.match(list[0], { type: 'invitation', title: 'You are invited to join Acme Bank', data: { kind: 'organization', organizationId: orgId, role: 'analyst' } });
  t.notOk(JSON.stringify(list[0]).match(/token/i), 'the invitation token is only in the e-mail');

  // Being added to a workspace explicitly is an invitation too.
  const add = await app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${github.id}/members`,
    headers: github.headers,
    payload: { email: viewer.email, role: 'member' },
  });
  t.equal(add.statusCode, 201, add.body);
  const mine = (await call('GET', '/notifications?type=invitation', viewer)).json().data.notifications;
  t.match(mine[0], {
    type: 'invitation',
    workspaceId: github.id,
    title: 'You were added to the workspace GitHub',
    data: { kind: 'workspace', role: 'member' },
  });
});

t.test('bad input is a 400 naming the field; bad notify calls are programming errors', async (t) => {
  for (const [url, field] of [
    ['/notifications?limit=0', 'limit'],
    ['/notifications?limit=101', 'limit'],
    ['/notifications?offset=-1', 'offset'],
    ['/notifications?type=party', 'type'],
    ['/notifications?unread=maybe', 'unread'],
    ['/notifications?colour=red', 'colour'],
  ] as const) {
    const res = await call('GET', url, owner);
    t.equal(res.statusCode, 400, url);
    t.equal(res.json().error.code, 'VALIDATION_ERROR');
    t.match(res.json().error.details.join(' '), field);
  }
  const some = (await call('GET', '/notifications', owner)).json().data.notifications[0];
  const bad = await call('PATCH', `/notifications/${some.id}`, owner, { read: 'yes please' });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().error.details[0], /^read: /);
  t.equal((await call('PATCH', `/notifications/${some.id}`, owner, { seen: true })).statusCode, 400);
  t.equal((await call('POST', '/notifications/read-all', owner, { workspaceId: '' })).statusCode, 400);

  await t.rejects(notifications.notify({ type: 'party' as never, userIds: [owner.id], title: 'x' }), /unknown notification type/);
  await t.rejects(notifications.notify({ type: 'system', title: 'x' }), /userIds or workspaceId/);
  await t.rejects(notifications.notify({ type: 'system', userIds: [owner.id], title: '  ' }), /title/);
  await t.rejects(notifications.notify({ type: 'system', userIds: [owner.id], title: 'x', data: { blob: 'x'.repeat(5000) } }), /data/);
  t.same(await notifications.notify({ type: 'system', userIds: [], title: 'nobody' }), [], 'no recipients, nothing stored');
  await notifications.notifyQuietly({ type: 'system', title: 'x' }); // logged, not thrown
});

t.test('GET /notifications/count has its own rate limit (120 per hour by default)', async (t) => {
  t.same(testConfig().rateLimits.notificationsCount, { max: 120, windowMs: 3_600_000 });
  const limited = await buildTestApp(
    { rateLimits: { ...testConfig().rateLimits, enabled: true, notificationsCount: { max: 2, windowMs: 3_600_000 } } },
    { seed: false },
  );
  t.teardown(limited.close);
  const u = await registerUser(limited.app);
  const get = (url: string) => limited.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: u.headers });
  t.equal((await get('/notifications/count')).statusCode, 200);
  const second = await get('/notifications/count');
  t.equal(second.headers['x-ratelimit-limit'], '2');
  t.equal(second.headers['x-ratelimit-remaining'], '0');
  const third = await get('/notifications/count');
  t.equal(third.statusCode, 429);
  t.equal(third.json().error.code, 'RATE_LIMIT_EXCEEDED');
  t.equal((await get('/notifications')).statusCode, 200, 'the list is not under the count limit');
});

t.test('a vendor submitting a questionnaire notifies everyone with access to the workspace', async (t) => {
  const before = { owner: await count(owner), analyst: await count(analyst), outsider: await count(outsider) };
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/questionnaires',
    headers: github.headers,
    payload: {
      title: 'Quick check',
      vendorContact: { email: 'vendor@github.example' },
      sections: [{ id: 'a', title: 'A', weight: 1 }],
      questions: [{ id: 'yn', sectionId: 'a', text: 'Do you have an incident process?', type: 'yes_no', weight: 1, articles: ['Article 30'] }],
      send: true,
    },
  });
  t.equal(created.statusCode, 201, created.body);
  const questionnaireId = created.json().data.questionnaire.id;
  const mail = [...app.mailer.sent].reverse().find((m) => m.to === 'vendor@github.example');
  const token = new URL(/(https?:\/\/\S+\/vendor-questionnaire\?token=\S+)/.exec(mail!.text)![1]).searchParams.get('token');
  const draft = await app.inject({
    method: 'PUT',
    url: `/api/v1/vendor-questionnaires/${token}/answers`,
    payload: { answers: [{ questionId: 'yn', value: 'yes' }] },
  });
  t.equal(draft.statusCode, 200, draft.body);
  t.equal(await count(analyst), before.analyst, 'saving a draft notifies nobody');
  const submit = await app.inject({
    method: 'PUT',
    url: `/api/v1/vendor-questionnaires/${token}/answers`,
    payload: { answers: [{ questionId: 'yn', value: 'yes' }], submit: true },
  });
  t.equal(submit.statusCode, 200, submit.body);
  t.equal(await count(owner), before.owner + 1);
  t.equal(await count(analyst), before.analyst + 1);
  t.equal(await count(outsider), before.outsider);
  const [n] = (await call('GET', '/notifications?type=questionnaire_answered&limit=1', analyst)).json().data.notifications;
  t.match(n, { title: 'Questionnaire answered: Quick check', workspaceId: github.id, data: { questionnaireId } });
});

t.test('a finished assessment notifies the one who started it', async (t) => {
  const before = { owner: await count(owner), analyst: await count(analyst) };
  const started = await createAssessment(
    app,
    github.headers,
    [
      {
        filename: 'sla.md',
        content: '# SLA\n\nGitHub commits to maintain at least 99.9% Uptime. Security incidents are notified without undue delay.',
        contentType: 'text/markdown',
      },
    ],
    { name: 'Quick gap check' },
  );
  t.equal(started.statusCode, 201, started.body);
  const id = started.json().data.assessment.id;
  const done = await waitForAssessment(app, github.headers, id);
  t.equal(done.status, 'completed');
  // The notification follows the stored result (the job announces after it has saved it).
  const deadline = Date.now() + 10_000;
  while ((await count(owner)) === before.owner && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  t.equal(await count(owner), before.owner + 1);
  t.equal(await count(analyst), before.analyst, 'the others are not disturbed');
  const [n] = (await call('GET', '/notifications?type=assessment_completed&limit=1', owner)).json().data.notifications;
  t.match(n, {
    title: 'Assessment complete: Quick gap check',
    workspaceId: github.id,
    data: { assessmentId: id, status: 'completed', score: done.score, riskRating: done.riskRating },
  });
});
