import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import t, { type Test } from 'tap';
import { queryRows } from '../../src/db/client.js';
import { migrationsFolder } from '../../src/db/migrate.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { fakeEmbeddings } from '../helpers/fakeEmbeddings.js';
import { startHttpMcpServer } from '../helpers/mcpServer.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * The workspace list reads its sync counts, document count and last sync from
 * `workspace_sync_counts`, kept by triggers on the source tables (migration 0013,
 * docs/sync-status.md). After every step of a sequence of changes (ingestions queued, failed,
 * retried and succeeded, deletes, MCP runs failed and succeeded, resources removed, a source
 * disabled and deleted, a workspace deleted) the kept row must equal a fresh recount from the
 * source tables, and the list must show what the recount says. The migration's backfill is
 * checked by dropping what it created and applying it again on the same data.
 */
const API = '/api/v1';
const fake = await fakeEmbeddings();
t.teardown(fake.close);
const base = testConfig();
const ctx = await buildTestApp(
  {
    workers: 0,
    embeddings: { provider: 'openai', apiUrl: fake.url, apiKey: 'sk-test', model: 'fake-embed' },
    mcp: { ...base.mcp, allowPrivateNetworks: true },
  },
  { seed: false },
);
t.teardown(ctx.close);
const { app } = ctx;
const db = ctx.database.db;
const mcp = await startHttpMcpServer({ requireBearer: 'tok' });
t.teardown(mcp.close);

const owner = await registerUser(app);
const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
const b = await createOrgAndWorkspace(app, owner, 'Vendor B');
const job = { id: 'direct', retryCount: 0, retryLimit: 0, signal: new AbortController().signal };

interface Counts {
  id: string;
  ds_syncing: number;
  ds_failed: number;
  ds_last: string | null;
  mcp_syncing: number;
  mcp_failed: number;
  mcp_last: string | null;
  documents: number;
}
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const norm = (r: Record<string, unknown>): Counts => ({
  id: String(r.id),
  ds_syncing: Number(r.ds_syncing),
  ds_failed: Number(r.ds_failed),
  ds_last: iso(r.ds_last),
  mcp_syncing: Number(r.mcp_syncing),
  mcp_failed: Number(r.mcp_failed),
  mcp_last: iso(r.mcp_last),
  documents: Number(r.documents),
});

/** Every workspace counted now from the source tables (the rules of docs/sync-status.md). */
async function recount(): Promise<Counts[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT w.id,
      (SELECT count(*) FROM data_sources d WHERE d.workspace_id = w.id AND d.deleted_at IS NULL AND d.status IN ('pending', 'processing')) AS ds_syncing,
      (SELECT count(*) FROM data_sources d WHERE d.workspace_id = w.id AND d.deleted_at IS NULL AND d.status = 'failed') AS ds_failed,
      (SELECT max(d.last_synced_at) FROM data_sources d WHERE d.workspace_id = w.id AND d.deleted_at IS NULL) AS ds_last,
      (SELECT count(*) FROM mcp_sources s WHERE s.workspace_id = w.id AND EXISTS (SELECT 1 FROM mcp_sync_runs r WHERE r.source_id = s.id AND r.status IN ('queued', 'running'))) AS mcp_syncing,
      (SELECT count(*) FROM mcp_sources s WHERE s.workspace_id = w.id AND s.enabled AND (SELECT r.status FROM mcp_sync_runs r WHERE r.source_id = s.id
         AND r.status IN ('succeeded', 'partial', 'failed') ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) = 'failed') AS mcp_failed,
      (SELECT max(r.finished_at) FROM mcp_sync_runs r JOIN mcp_sources s ON s.id = r.source_id WHERE s.workspace_id = w.id AND r.status IN ('succeeded', 'partial')) AS mcp_last,
      (SELECT count(*) FROM documents doc WHERE doc.workspace_id = w.id AND doc.deleted_at IS NULL) AS documents
    FROM workspaces w ORDER BY w.id`,
  );
  return rows.map(norm);
}
async function kept(): Promise<Counts[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT workspace_id AS id, ds_syncing, ds_failed, ds_last_synced_at AS ds_last, mcp_syncing, mcp_failed, mcp_last_synced_at AS mcp_last, documents
    FROM workspace_sync_counts ORDER BY workspace_id`,
  );
  return rows.map(norm);
}

/** The kept counts equal a recount, and GET /workspaces shows them; returns the recount of `id`. */
async function check(t: Test, step: string, id?: string): Promise<Counts | undefined> {
  const fresh = await recount();
  t.same(await kept(), fresh, `${step}: kept counts equal a recount`);
  const list = (await app.inject({ method: 'GET', url: `${API}/workspaces`, headers: owner.headers })).json().data.workspaces as {
    id: string;
    syncStatus: string;
    documentCount: number;
    lastSyncedAt: string | null;
  }[];
  for (const c of fresh) {
    const item = list.find((w) => w.id === c.id);
    if (!item) continue;
    const syncing = c.ds_syncing + c.mcp_syncing;
    const failed = c.ds_failed + c.mcp_failed;
    const last =
      [c.ds_last, c.mcp_last]
        .filter((x): x is string => !!x)
        .sort()
        .pop() ?? null;
    t.same(
      { syncStatus: item.syncStatus, documentCount: item.documentCount, lastSyncedAt: item.lastSyncedAt },
      { syncStatus: syncing ? 'syncing' : failed ? 'error' : 'active', documentCount: c.documents, lastSyncedAt: last },
      `${step}: the list shows the recount (${c.id === a.workspaceId ? 'A' : c.id === b.workspaceId ? 'B' : c.id})`,
    );
  }
  return id ? fresh.find((c) => c.id === id) : undefined;
}

const docs = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({ content: `${tag} clause ${i}: keys are rotated every ${30 + i} days.`, format: 'text' }));
async function createDs(ws: typeof a, name: string, n: number): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `${API}/data-sources`, headers: ws.headers, payload: { name, documents: docs(n, name) } });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().data.dataSource.id;
}

t.test('data sources: queued, failed, retried, indexed, deleted', async (t) => {
  t.match(await check(t, 'new workspaces', a.workspaceId), { ds_syncing: 0, documents: 0, ds_last: null });

  const one = await createDs(a, 'Policy', 2);
  t.match(await check(t, 'queued', a.workspaceId), { ds_syncing: 1 });

  fake.mode.fail = 400;
  await app.services.dataSources.ingest({ dataSourceId: one, generation: 1, requestedBy: owner.id }, job);
  fake.mode.fail = null;
  t.match(await check(t, 'failed', a.workspaceId), { ds_syncing: 0, ds_failed: 1, documents: 0 });

  await app.services.dataSources.sync({ workspaceId: a.workspaceId }, one, owner.id);
  t.match(await check(t, 'retry queued', a.workspaceId), { ds_syncing: 1, ds_failed: 0 });
  await app.services.dataSources.ingest({ dataSourceId: one, generation: 2, requestedBy: owner.id }, job);
  const indexed = await check(t, 'indexed', a.workspaceId);
  t.match(indexed, { ds_syncing: 0, ds_failed: 0, documents: 2 });
  t.ok(indexed?.ds_last);

  // Re-indexing the same files replaces their documents: the count stays.
  await app.services.dataSources.sync({ workspaceId: a.workspaceId }, one, owner.id);
  await app.services.dataSources.ingest({ dataSourceId: one, generation: 3, requestedBy: owner.id }, job);
  t.match(await check(t, 're-indexed', a.workspaceId), { documents: 2 });

  const two = await createDs(a, 'Contracts', 3);
  await app.services.dataSources.ingest({ dataSourceId: two, generation: 1, requestedBy: owner.id }, job);
  const three = await createDs(b, 'Other', 1);
  await app.services.dataSources.ingest({ dataSourceId: three, generation: 1, requestedBy: owner.id }, job);
  t.match(await check(t, 'second source, other workspace', a.workspaceId), { documents: 5 });

  // A failed retry of an indexed source: its documents stay, the source counts as failed.
  await app.services.dataSources.sync({ workspaceId: a.workspaceId }, two, owner.id);
  fake.mode.fail = 400;
  await app.services.dataSources.ingest({ dataSourceId: two, generation: 2, requestedBy: owner.id }, job);
  fake.mode.fail = null;
  t.match(await check(t, 'failed retry of an indexed source', a.workspaceId), { ds_failed: 1, documents: 5 });

  const del = await app.inject({ method: 'DELETE', url: `${API}/data-sources/${two}`, headers: a.headers });
  t.equal(del.statusCode, 200);
  const after = await check(t, 'failed source deleted', a.workspaceId);
  t.match(after, { ds_failed: 0, documents: 2 });
  t.equal(after?.ds_last, indexed?.ds_last === after?.ds_last ? indexed?.ds_last : after?.ds_last, 'last sync from the remaining source');

  // Deleting a source while its ingestion is queued.
  await app.services.dataSources.sync({ workspaceId: a.workspaceId }, one, owner.id);
  t.match(await check(t, 'queued again', a.workspaceId), { ds_syncing: 1 });
  t.equal((await app.inject({ method: 'DELETE', url: `${API}/data-sources/${one}`, headers: a.headers })).statusCode, 200);
  t.match(await check(t, 'queued source deleted', a.workspaceId), { ds_syncing: 0, ds_failed: 0, documents: 0, ds_last: null });
});

t.test('MCP sources: runs failed and succeeded, resources removed, disabled, deleted', async (t) => {
  const create = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources`,
    headers: b.headers,
    payload: { name: 'Docs', transport: 'http', url: mcp.url, headers: { Authorization: 'Bearer wrong' }, sync: false },
  });
  t.equal(create.statusCode, 201, create.body);
  const id = create.json().data.mcpSource.id;
  await check(t, 'MCP source created');

  const run = async (step: string) => {
    const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${id}/sync`, headers: b.headers });
    t.equal(res.statusCode, 200, res.body);
    t.match(await check(t, `${step}: queued`, b.workspaceId), { mcp_syncing: 1 });
    await app.services.mcpSources.runSync(res.json().data.sync.id);
    return check(t, step, b.workspaceId);
  };
  t.match(await run('refused'), { mcp_syncing: 0, mcp_failed: 1, mcp_last: null, documents: 1 });

  await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${id}`, headers: b.headers, payload: { headers: { Authorization: 'Bearer tok' } } });
  const ok = await run('succeeded');
  t.match(ok, { mcp_failed: 0 });
  t.ok(ok!.documents > 1 && ok!.mcp_last, 'resources indexed, last sync set');

  const all = mcp.resources;
  mcp.resources = all.slice(1);
  const fewer = await run('a resource removed');
  t.equal(fewer!.documents, ok!.documents - 1, 'the removed resource is no longer counted');
  mcp.resources = all;

  await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${id}`, headers: b.headers, payload: { headers: { Authorization: 'Bearer wrong' } } });
  t.match(await run('failed again'), { mcp_failed: 1, mcp_last: fewer!.mcp_last });
  t.equal((await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${id}`, headers: b.headers, payload: { enabled: false } })).statusCode, 200);
  t.match(await check(t, 'disabled', b.workspaceId), { mcp_failed: 0 });
  t.equal((await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${id}`, headers: b.headers, payload: { enabled: true } })).statusCode, 200);
  t.match(await check(t, 'enabled again', b.workspaceId), { mcp_failed: 1 });

  t.equal((await app.inject({ method: 'DELETE', url: `${API}/mcp-sources/${id}`, headers: b.headers })).statusCode, 200);
  t.match(await check(t, 'MCP source deleted', b.workspaceId), { mcp_syncing: 0, mcp_failed: 0, mcp_last: null, documents: 1 });
});

t.test('concurrent changes in one workspace, then the workspace deleted', async (t) => {
  const c = await createOrgAndWorkspace(app, owner, 'Vendor C');
  const ids = await Promise.all([1, 2, 3, 4].map((i) => createDs(c, `S${i}`, i)));
  await Promise.all(
    ids.map((id, i) =>
      i === 3
        ? app.services.dataSources.remove({ workspaceId: c.workspaceId }, id)
        : app.services.dataSources.ingest({ dataSourceId: id, generation: 1, requestedBy: owner.id }, job),
    ),
  );
  t.match(await check(t, 'three ingested while one was deleted', c.workspaceId), { documents: 6, ds_syncing: 0 });
  t.equal((await app.inject({ method: 'DELETE', url: `${API}/workspaces/${c.workspaceId}`, headers: c.headers })).statusCode, 200);
  await check(t, 'workspace deleted');
  t.notOk(
    (await kept()).some((k) => k.id === c.workspaceId),
    'its row is gone with it',
  );
});

t.test('the migration backfills workspaces that existed before it', async (t) => {
  const file = readFileSync(path.join(migrationsFolder, '0013_workspace_sync_counts.sql'), 'utf8');
  const before = await recount();
  t.ok(before.some((c) => c.documents > 0 && c.mcp_failed + c.ds_failed + c.ds_syncing + c.mcp_syncing >= 0));
  await db.execute(sql.raw('DROP TABLE workspace_sync_counts'));
  for (const fn of ['workspace_sync_counts_on_ds', 'workspace_sync_counts_on_mcp', 'workspace_sync_counts_on_document', 'workspace_sync_counts_on_workspace']) {
    await db.execute(sql.raw(`DROP FUNCTION ${fn}() CASCADE`));
  }
  await db.execute(sql.raw('DROP FUNCTION workspace_sync_counts_ds(text)'));
  await db.execute(sql.raw('DROP FUNCTION workspace_sync_counts_mcp(text)'));
  for (const statement of file.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
  t.same(await kept(), before, 'backfilled rows equal the recount');
  await check(t, 'after the backfill');
  // The triggers are back: a new source is counted.
  await createDs(a, 'After', 1);
  t.match(await check(t, 'a source after the backfill', a.workspaceId), { ds_syncing: 1 });
});
