/**
 * Contract rules checked on every route of the OpenAPI document (`/docs/json`), so a
 * route added later is covered without touching this file:
 * - an empty body sent with `Content-Type: application/json` is treated as no body
 *   (docs/api-conventions.md, "Request bodies");
 * - list endpoints page with `page` and `limit` and answer a `pagination` object, and
 *   paging numbers are bounded integers (docs/api-conventions.md, "Lists").
 */
import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createAssessment, vendorDocs, waitForAssessment } from '../helpers/assessments.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const ctx = await buildTestApp();
t.teardown(ctx.close);
const { app } = ctx;

const owner = await registerUser(app, { name: 'Contract Owner' });
const ws = await createOrgAndWorkspace(app, owner, 'Contract Vendor');
const headers = ws.headers;

interface Operation {
  method: string;
  /** OpenAPI path, e.g. `/api/v1/conversations/{id}`. */
  path: string;
  op: Record<string, any>;
}
const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
const operations: Operation[] = [];
for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
    operations.push({ method: method.toUpperCase(), path, op });
  }
}
const api = operations.filter((o) => o.path.startsWith('/api/v1/'));

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
/** A concrete URL: path parameters filled with ids that exist nowhere. */
function urlOf(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'article' ? 'Article-99' : NO_SUCH_ID));
}
const isStream = (o: Operation) => /\/stream$/.test(o.path);

// ---- Lists ----------------------------------------------------------------------------

/** GET routes whose `data` holds an array but that are not lists, with the reason. */
const NOT_LISTS: Record<string, string> = {
  'GET /api/v1/conversations/{id}': 'one conversation with its latest messages, bounded by messageLimit',
  'GET /api/v1/conversations/{id}/export': 'the export of one whole conversation',
  'GET /api/v1/analytics/usage': 'aggregates over a date range, not a list of records',
  'GET /api/v1/workspaces/{id}/contracts': "one vendor's contracts, part of its profile (at most 100)",
  'GET /api/v1/register/code-lists': 'the closed lists of the EBA taxonomy, not records',
  'GET /api/v1/analytics/kpis': 'a fixed set of portfolio figures, not records',
};
const dataOf = (o: Operation) => o.op.responses?.['200']?.content?.['application/json']?.schema?.properties?.data;
const arraysOf = (o: Operation): string[] =>
  Object.entries<Record<string, unknown>>(dataOf(o)?.properties ?? {})
    .filter(([, s]) => s.type === 'array')
    .map(([k]) => k);
const queryParams = (o: Operation): Record<string, Record<string, any>> =>
  Object.fromEntries((o.op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema ?? {}]));
const lists = api.filter((o) => o.method === 'GET' && arraysOf(o).length > 0 && !NOT_LISTS[`${o.method} ${o.path}`]);

// Data so that lists have more than one item: workspaces, a second member, conversations with messages, a notification.
const second = await registerUser(app, { name: 'Second Member' });
const invite = await app.inject({
  method: 'POST',
  url: `/api/v1/organizations/${ws.orgId}/invite`,
  headers: owner.headers,
  payload: { email: second.email, role: 'analyst' },
});
const token = /Invitation token: (\S+)/.exec([...app.mailer.sent].reverse().find((m) => m.to === second.email)!.text)![1];
await app.inject({ method: 'POST', url: '/api/v1/organizations/invitations/accept', headers: second.headers, payload: { token } });
await app.inject({
  method: 'POST',
  url: `/api/v1/organizations/${ws.orgId}/invite`,
  headers: owner.headers,
  payload: { email: 'pending-one@example.com', role: 'viewer' },
});
await app.inject({
  method: 'POST',
  url: `/api/v1/organizations/${ws.orgId}/invite`,
  headers: owner.headers,
  payload: { email: 'pending-two@example.com', role: 'viewer' },
});
const conversationIds: string[] = [];
for (const title of ['First', 'Second']) {
  const c = await app.inject({ method: 'POST', url: '/api/v1/conversations', headers, payload: { title } });
  conversationIds.push(c.json().data.conversation.id);
}
await app.inject({ method: 'POST', url: `/api/v1/conversations/${conversationIds[0]}/ask`, headers, payload: { question: 'What does Article 28 require?' } });

// A completed assessment with two comments (its review trail is a list).
const assessmentId: string = (await createAssessment(app, headers, vendorDocs('basecamp', ['basecamp-big-sla.md']))).json().data.assessment.id;
await waitForAssessment(app, headers, assessmentId);
for (const text of ['First comment', 'Second comment']) {
  await app.inject({ method: 'POST', url: `/api/v1/assessments/${assessmentId}/results/A30.2.e/comments`, headers, payload: { text } });
}
// Its completion notification (sent just after the status changes) read, so that read-all answers the same to both requests below.
for (let i = 0; i < 100; i++) {
  const count = (await app.inject({ method: 'GET', url: '/api/v1/notifications/count', headers: owner.headers })).json().data;
  if (count.unreadCount > 0) break;
  await new Promise((r) => setTimeout(r, 20));
}
await app.inject({ method: 'POST', url: '/api/v1/notifications/read-all', headers: owner.headers });

/** Ids for the path parameters of list routes (a new list route with a path parameter needs one here). */
function listUrl(path: string): string {
  return path.replace(/\{(\w+)\}/g, () => {
    if (path.startsWith('/api/v1/organizations/')) return ws.orgId;
    if (path.startsWith('/api/v1/conversations/')) return conversationIds[0];
    if (path.startsWith('/api/v1/workspaces/')) return ws.workspaceId;
    if (path.startsWith('/api/v1/assessments/')) return assessmentId;
    return NO_SUCH_ID;
  });
}

// Every subtest is queued after the set-up above: the root test (and its teardown) must not
// finish while top-level set-up is still awaiting.
t.test('an empty JSON body is the same as no body, on every route', async (t) => {
  const checked: string[] = [];
  for (const o of api) {
    if (o.method === 'GET' || isStream(o)) continue;
    const url = urlOf(o.path);
    // The empty JSON body first: for a route that changes state, the request without a
    // body then meets the same state (ids that exist nowhere keep both harmless).
    const empty = await app.inject({ method: o.method as 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: '' });
    const none = await app.inject({ method: o.method as 'POST', url, headers });
    const label = `${o.method} ${o.path}`;
    t.not(empty.json().message, "Body cannot be empty when content-type is set to 'application/json'", label);
    t.same(
      { status: empty.statusCode, code: empty.json().error?.code, message: empty.json().message },
      { status: none.statusCode, code: none.json().error?.code, message: none.json().message },
      `${label}: same answer with an empty JSON body as without a body`,
    );
    checked.push(label);
  }
  t.ok(checked.includes('POST /api/v1/auth/logout'), 'logout is covered');
  t.ok(checked.includes('DELETE /api/v1/conversations/{id}'), 'deletes are covered');
  t.ok(checked.length > 40, `${checked.length} routes checked`);
  // Whitespace only is empty too; a body that is not JSON is still refused.
  const blank = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/logout',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    payload: ' \n',
  });
  t.equal(blank.statusCode, 200);
  const bad = await app.inject({
    method: 'POST',
    url: '/api/v1/conversations',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: '{"title":',
  });
  t.equal(bad.statusCode, 400);
  t.equal(bad.json().error.code, 'VALIDATION_ERROR');
  const poisoned = await app.inject({
    method: 'POST',
    url: '/api/v1/conversations',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: '{"__proto__":{"x":1},"title":"a"}',
  });
  t.equal(poisoned.statusCode, 400, 'prototype poisoning is still refused');
});

t.test('a missing X-Workspace-Id: the message is the details joined', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/api/v1/conversations', headers: owner.headers });
  t.equal(res.statusCode, 400);
  t.same(res.json(), {
    status: 'error',
    message: 'Validation failed: X-Workspace-Id: is required',
    error: { code: 'VALIDATION_ERROR', details: ['X-Workspace-Id: is required'] },
  });
});

t.test('every list takes page and limit and answers pagination', async (t) => {
  t.ok(lists.length >= 15, `${lists.length} list routes found in the OpenAPI document`);
  for (const want of ['/api/v1/workspaces', '/api/v1/organizations/{id}/members', '/api/v1/compliance/articles', '/api/v1/notifications']) {
    t.ok(
      lists.some((o) => o.path === want),
      `${want} is a list`,
    );
  }
  for (const o of lists) {
    const label = `${o.method} ${o.path}`;
    const q = queryParams(o);
    t.match(q.page, { type: 'integer', minimum: 1, maximum: Number }, `${label}: page is a bounded integer`);
    t.match(q.limit, { type: 'integer', minimum: 1, maximum: Number }, `${label}: limit is a bounded integer`);
    t.ok((q.limit?.maximum ?? Infinity) <= 100, `${label}: limit at most 100`);
    const p = dataOf(o)?.properties?.pagination?.properties ?? {};
    t.same(
      Object.keys(p)
        .filter((k) => ['page', 'limit', 'total', 'pages', 'hasMore'].includes(k))
        .sort(),
      ['hasMore', 'limit', 'page', 'pages', 'total'],
      `${label}: pagination documented`,
    );

    const url = listUrl(o.path);
    const sep = url.includes('?') ? '&' : '?';
    const first = await app.inject({ method: 'GET', url: `${url}${sep}page=1&limit=1`, headers });
    t.equal(first.statusCode, 200, `${label}?page=1&limit=1: ${first.body.slice(0, 200)}`);
    if (first.statusCode !== 200) continue;
    const data = first.json().data;
    const items = data[arraysOf(o).find((k) => Array.isArray(data[k]))!];
    const pg = data.pagination;
    t.ok(items.length <= 1, `${label}: at most limit items`);
    t.match(pg, { page: 1, limit: 1, total: Number, pages: Math.ceil(pg.total), hasMore: pg.total > 1 }, `${label}: pagination of page 1`);
    const secondPage = (await app.inject({ method: 'GET', url: `${url}${sep}page=2&limit=1`, headers })).json().data;
    t.equal(secondPage.pagination.page, 2, `${label}: page 2`);
    const secondItems = secondPage[arraysOf(o).find((k) => Array.isArray(secondPage[k]))!];
    if (pg.total >= 2) t.notSame(secondItems[0], items[0], `${label}: page 2 holds another item`);
    else t.equal(secondItems.length, 0, `${label}: page 2 is empty`);
  }
});

t.test('paging numbers are bounded integers: 400 naming the parameter', async (t) => {
  let checked = 0;
  for (const o of api.filter((x) => x.method === 'GET' && !isStream(x))) {
    for (const [name, schema] of Object.entries(queryParams(o))) {
      if (schema.type !== 'integer' && schema.type !== 'number') continue;
      t.ok(schema.maximum !== undefined, `${o.path} ${name} has a maximum`);
      const url = listUrl(o.path);
      const sep = url.includes('?') ? '&' : '?';
      for (const value of ['1e309', '99999999999999999999', '-1e309', '1.5']) {
        const res = await app.inject({ method: 'GET', url: `${url}${sep}${name}=${value}`, headers });
        t.equal(res.statusCode, 400, `${o.path}?${name}=${value}`);
        t.ok(
          res.json().error?.details?.some((d: string) => d.startsWith(`${name}: `)),
          `${o.path}?${name}=${value} names ${name}: ${res.json().message}`,
        );
        checked += 1;
      }
    }
  }
  t.ok(checked >= 4 * 20, `${checked} hostile values checked`);
});

t.test('GET /workspaces pages and sorts in SQL and hides withdrawn workspaces', async (t) => {
  const names = ['Charlie Vendor', 'Alpha Vendor', 'Bravo Vendor'];
  const created: string[] = [];
  for (const workspaceName of names) {
    const res = await app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: owner.headers, payload: { workspaceName } });
    created.push(res.json().data.workspace.id);
  }
  const list = async (qs: string, who = owner) => (await app.inject({ method: 'GET', url: `/api/v1/workspaces${qs}`, headers: who.headers })).json().data;
  const all = await list('');
  t.same(all.pagination, { page: 1, limit: 20, total: 4, pages: 1, hasMore: false });
  t.same(
    all.workspaces.map((w: { workspaceName: string }) => w.workspaceName),
    ['Contract Vendor', ...names],
    'default: oldest first',
  );
  const byName = await list('?sort=workspaceName&limit=2&page=2');
  t.same(
    byName.workspaces.map((w: { workspaceName: string }) => w.workspaceName),
    ['Charlie Vendor', 'Contract Vendor'],
  );
  t.same(byName.pagination, { page: 2, limit: 2, total: 4, pages: 2, hasMore: false });
  const desc = await list('?sort=-workspaceName&limit=1');
  t.equal(desc.workspaces[0].workspaceName, 'Contract Vendor');
  // The second member is removed from one workspace: it leaves their list and their total.
  const removed = await app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${created[1]}/members/${second.id}`, headers: owner.headers });
  t.equal(removed.statusCode, 200);
  const theirs = await list('?limit=2&sort=workspaceName', second);
  t.equal(theirs.pagination.total, 3, 'the withdrawn workspace is not counted');
  t.same(
    theirs.workspaces.map((w: { workspaceName: string }) => w.workspaceName),
    ['Bravo Vendor', 'Charlie Vendor'],
  );
  const bad = await app.inject({ method: 'GET', url: '/api/v1/workspaces?sort=memberCount', headers: owner.headers });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().error.details, [/^sort: must be one of/]);
});

t.test('organization members and invitations page and sort', async (t) => {
  const members = (await app.inject({ method: 'GET', url: `/api/v1/organizations/${ws.orgId}/members?limit=1&page=2`, headers: owner.headers })).json().data;
  t.same(
    members.members.map((m: { user: { id: string } }) => m.user.id),
    [second.id],
    'joined order',
  );
  t.same(members.pagination, { page: 2, limit: 1, total: 2, pages: 2, hasMore: false });
  const byRole = (await app.inject({ method: 'GET', url: `/api/v1/organizations/${ws.orgId}/members?sort=-role`, headers: owner.headers })).json().data;
  t.same(
    byRole.members.map((m: { role: string }) => m.role),
    ['org_admin', 'analyst'].sort().reverse(),
  );
  const inv = (await app.inject({ method: 'GET', url: `/api/v1/organizations/${ws.orgId}/invitations?sort=-email&limit=1`, headers: owner.headers })).json()
    .data;
  t.same(
    inv.invitations.map((i: { email: string }) => i.email),
    ['pending-two@example.com'],
  );
  t.equal(inv.pagination.total, 2);
});

t.test('reference lists: the default page holds the whole set; page and limit work', async (t) => {
  const all = (await app.inject({ method: 'GET', url: '/api/v1/compliance/articles', headers: owner.headers })).json().data;
  t.equal(all.articles.length, 45);
  t.equal(all.total, 45);
  const page = await app.inject({ method: 'GET', url: '/api/v1/compliance/articles?page=2&limit=5', headers: owner.headers });
  t.equal(page.statusCode, 200);
  t.same(
    page.json().data.articles.map((a: { article: string }) => a.article),
    ['Article 6', 'Article 7', 'Article 8', 'Article 9', 'Article 10'],
  );
  t.same(page.json().data.pagination, { page: 2, limit: 5, total: 45, pages: 9, hasMore: true });
});
