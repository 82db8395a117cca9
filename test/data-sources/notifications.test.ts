import t from 'tap';
import { buildTestApp, registerUser, type Session } from '../helpers/app.js';
import { fakeEmbeddings } from '../helpers/fakeEmbeddings.js';
import type { AddressInfo } from 'node:net';
import { waitForDataSource } from '../helpers/dataSources.js';
import { connectSse } from '../helpers/sse.js';
import { addOrgMember, createOrg, createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

/**
 * Sync notifications of file data sources (docs/notifications.md): an upload or a
 * manual sync tells the user who asked, whatever the outcome; a scheduled sync tells
 * the whole workspace, and only when it failed; a superseded run tells nobody.
 */
const fake = await fakeEmbeddings();
t.teardown(fake.close);
const ctx = await buildTestApp({ embeddings: { provider: 'openai', apiUrl: fake.url, apiKey: 'sk-test', model: 'fake-embed' } }, { seed: false });
t.teardown(ctx.close);
const { app } = ctx;

interface Notice {
  id: string;
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  workspaceId: string | null;
}
async function syncNotices(s: Session): Promise<Notice[]> {
  const res = await app.inject({ method: 'GET', url: '/api/v1/notifications?limit=100', headers: s.headers });
  if (res.statusCode !== 200) throw new Error(res.body);
  return (res.json().data.notifications as Notice[]).filter((n) => n.type.startsWith('sync_'));
}
/** Waits until `s` has `n` sync notifications (they follow the stored status by a few ms). */
async function waitNotices(s: Session, n: number): Promise<Notice[]> {
  for (let i = 0; i < 400; i++) {
    const list = await syncNotices(s);
    if (list.length >= n) return list;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`expected ${n} sync notifications`);
}

const owner = await registerUser(app, { name: 'Olivia Owner' });
const orgId = await createOrg(app, owner, 'Acme Bank');
const analyst = await addOrgMember(app, owner, orgId, 'analyst', { name: 'Ann Analyst' });
const viewer = await addOrgMember(app, owner, orgId, 'viewer', { name: 'Vic Viewer' });
const ws = await createWorkspace(app, owner, 'Nebula Cloud');
const asAnalyst = { ...analyst.headers, 'x-workspace-id': ws.id };

const created = await app.inject({
  method: 'POST',
  url: '/api/v1/data-sources',
  headers: ws.headers,
  payload: {
    name: 'Nebula contract',
    documents: [{ title: 'Nebula MSA', content: 'Nebula stores customer data in Frankfurt and notifies incidents within 24 hours.', format: 'text' }],
  },
});
if (created.statusCode !== 201) throw new Error(created.body);
const dsId: string = created.json().data.dataSource.id;

t.test('an upload tells the uploader when its documents are indexed, and nobody else', async (t) => {
  const ds = await waitForDataSource(app, ws.headers, dsId);
  t.equal(ds.status, 'ready');
  const [n, ...more] = await waitNotices(owner, 1);
  t.same(more, []);
  t.equal(n!.type, 'sync_completed');
  t.equal(n!.title, 'Sync of data source Nebula contract finished');
  t.equal(n!.body, `1 document indexed in ${ds.chunkCount} ${ds.chunkCount === 1 ? 'chunk' : 'chunks'}`);
  t.equal(n!.workspaceId, ws.id);
  t.same(n!.data, { dataSourceId: dsId, generation: 1, status: 'ready', trigger: 'manual' });
  t.same(await syncNotices(analyst), [], 'other members are not told of someone else’s upload');
  t.same(await syncNotices(viewer), []);
});

t.test('a manual sync tells the member who asked, success or failure', async (t) => {
  const ok = await app.inject({ method: 'POST', url: `/api/v1/data-sources/${dsId}/sync`, headers: asAnalyst });
  t.equal(ok.statusCode, 200);
  await waitForDataSource(app, asAnalyst, dsId);
  const [done] = await waitNotices(analyst, 1);
  t.equal(done!.type, 'sync_completed');
  t.same(done!.data, { dataSourceId: dsId, generation: 2, status: 'ready', trigger: 'manual' });

  fake.mode.fail = 400; // a permanent embedding error: no retry
  t.teardown(() => void (fake.mode.fail = null));
  const bad = await app.inject({ method: 'POST', url: `/api/v1/data-sources/${dsId}/sync`, headers: asAnalyst });
  t.equal(bad.statusCode, 200);
  const failed = await waitForDataSource(app, asAnalyst, dsId);
  t.equal(failed.status, 'failed');
  const [latest, previous] = await waitNotices(analyst, 2);
  t.equal(previous!.id, done!.id);
  t.equal(latest!.type, 'sync_failed');
  t.equal(latest!.title, 'Sync of data source Nebula contract failed');
  t.match(latest!.body, /^EMBEDDING_FAILED: Embedding service answered 400/);
  t.same(latest!.data, { dataSourceId: dsId, generation: 3, status: 'failed', trigger: 'manual' });
  t.equal((await syncNotices(owner)).length, 1, 'the owner heard only of their own upload');
  t.same(await syncNotices(viewer), []);
});

t.test('a scheduled sync tells the whole workspace when it fails, nobody when it succeeds', async (t) => {
  const before = { owner: (await syncNotices(owner)).length, analyst: (await syncNotices(analyst)).length, viewer: (await syncNotices(viewer)).length };

  fake.mode.fail = 400;
  await app.services.dataSources.sync({ workspaceId: ws.id }, dsId, null);
  t.equal((await waitForDataSource(app, ws.headers, dsId)).status, 'failed');
  const [o] = await waitNotices(owner, before.owner + 1);
  const [a] = await waitNotices(analyst, before.analyst + 1);
  const [v] = await waitNotices(viewer, before.viewer + 1);
  for (const n of [o, a, v]) {
    t.equal(n!.type, 'sync_failed');
    t.same(n!.data, { dataSourceId: dsId, generation: 4, status: 'failed', trigger: 'schedule' });
  }

  fake.mode.fail = null;
  await app.services.dataSources.sync({ workspaceId: ws.id }, dsId, null);
  t.equal((await waitForDataSource(app, ws.headers, dsId)).status, 'ready');
  // A manual sync after it: its notification proves the scheduled one's would have arrived first.
  await app.inject({ method: 'POST', url: `/api/v1/data-sources/${dsId}/sync`, headers: ws.headers });
  await waitForDataSource(app, ws.headers, dsId);
  const [mine, ...rest] = await waitNotices(owner, before.owner + 2);
  t.equal(rest.length, before.owner + 1, 'the successful scheduled sync told nobody');
  t.same(mine!.data, { dataSourceId: dsId, generation: 6, status: 'ready', trigger: 'manual' });
  t.equal((await syncNotices(analyst)).length, before.analyst + 1);
  t.equal((await syncNotices(viewer)).length, before.viewer + 1);
});

t.test('a run superseded by a newer sync, or of a deleted source, tells nobody', async (t) => {
  const before = (await syncNotices(owner)).length;
  const signal = new AbortController().signal;
  const job = { id: 'direct', retryCount: 0, retryLimit: 0, signal };
  // Generation 6 is no longer current after this sync (generation 7).
  await app.services.dataSources.sync({ workspaceId: ws.id }, dsId, owner.id);
  await app.services.dataSources.ingest({ dataSourceId: dsId, generation: 6, requestedBy: owner.id }, job);
  await waitForDataSource(app, ws.headers, dsId);
  const after = await waitNotices(owner, before + 1);
  t.equal(after.length, before + 1, 'one notification: the current generation’s');
  t.equal(after[0]!.data.generation, 7);

  const del = await app.inject({ method: 'DELETE', url: `/api/v1/data-sources/${dsId}`, headers: ws.headers });
  t.equal(del.statusCode, 200);
  await app.services.dataSources.ingest({ dataSourceId: dsId, generation: 7, requestedBy: owner.id }, job);
  t.equal((await syncNotices(owner)).length, before + 1, 'a deleted source is not re-indexed nor announced');
});

t.test('status changes are pushed live to the streams of the members who can see the sources', async (t) => {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/notifications/stream`;
  // The viewer loses canViewSources in this workspace; a user of another organization has no access at all.
  const withdrawn = await app.inject({
    method: 'PATCH',
    url: `/api/v1/workspaces/${ws.id}/members/${viewer.id}`,
    headers: owner.headers,
    payload: { permissions: { canViewSources: false } },
  });
  t.equal(withdrawn.statusCode, 200, withdrawn.body);
  const outsider = await registerUser(app, { name: 'Otto Outsider' });
  await createOrgAndWorkspace(app, outsider, 'Elsewhere', 'Other Bank');
  const [a, v, o] = await Promise.all([analyst, viewer, outsider].map((s) => connectSse(base, s.headers)));
  t.teardown(() => [a, v, o].forEach((c) => c.close()));
  await Promise.all([a, v, o].map((c) => c.next('notification:count')));

  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    headers: ws.headers,
    payload: { name: 'Live policy', documents: [{ content: 'Backups are encrypted and tested quarterly.', format: 'text' }] },
  });
  t.equal(res.statusCode, 201);
  const id = res.json().data.dataSource.id;
  const seen: string[] = [];
  let last: Record<string, unknown> = {};
  while (seen.at(-1) !== 'ready') {
    last = (await a.next('data-source:status', 10_000)).data as Record<string, unknown>;
    if (last.id === id) seen.push(String(last.status));
  }
  t.same(seen, ['pending', 'processing', 'ready'], 'queued -> processing -> ready, in order, without polling');
  t.match(last, { id, workspaceId: ws.id, name: 'Live policy', status: 'ready', error: null, documentCount: 1, lastSyncedAt: String });
  t.type(last.timestamp, 'number');

  fake.mode.fail = 400;
  t.teardown(() => void (fake.mode.fail = null));
  await app.inject({ method: 'POST', url: `/api/v1/data-sources/${id}/sync`, headers: ws.headers });
  const failSeq: string[] = [];
  while (!['failed', 'ready'].includes(failSeq.at(-1) ?? '')) {
    last = (await a.next('data-source:status', 10_000)).data as Record<string, unknown>;
    if (last.id === id) failSeq.push(String(last.status));
  }
  t.same(failSeq, ['pending', 'processing', 'failed']);
  t.match(last, { status: 'failed', error: { code: 'EMBEDDING_FAILED', message: /Embedding service answered 400/ } }, 'a failure carries its error');
  fake.mode.fail = null;

  await app.inject({ method: 'DELETE', url: `/api/v1/data-sources/${id}`, headers: ws.headers });
  t.match((await a.next('data-source:status')).data, { id, status: 'deleted' });
  t.same(
    v.events.filter((e) => e.event === 'data-source:status'),
    [],
    'a member without canViewSources is not told',
  );
  t.same(
    o.events.filter((e) => e.event === 'data-source:status'),
    [],
    'nor is anyone outside the workspace',
  );
  t.notOk(
    a.events.some((e) => e.event === 'data-source:status' && e.id),
    'status events carry no id (not stored, nothing to resume)',
  );
});
