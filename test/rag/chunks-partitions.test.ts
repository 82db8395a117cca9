import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { migrationsFolder } from '../../src/db/migrate.js';
import { analyseQuestion, conceptQueries, embeddingQuery } from '../../src/rag/concepts.js';
import { CANDIDATES, POOL, TEXT_CANDIDATES, searchSql } from '../../src/rag/retrieval.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

// chunks is hash-partitioned by workspace (migration 0014_chunks_by_workspace, docs/retrieval.md):
// the migration must carry every stored chunk over unchanged, and a search must read only the
// partitions of its two scopes (the workspace's and the corpus's).

const MIGRATION = '0014_chunks_by_workspace';

/** The committed migrations without 0014: the schema as it was before chunks were partitioned. */
function migrationsBefore(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dora-migrations-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.tag !== MIGRATION);
  writeFileSync(journalFile, JSON.stringify(journal));
  rmSync(path.join(dir, `${MIGRATION}.sql`));
  return dir;
}

const snapshot = (db: Parameters<typeof queryRows>[0]) =>
  queryRows<Record<string, unknown>>(
    db,
    sql`SELECT id, workspace_id, document_id, data_source_id, chunk_index, title, section, page, page_end, url, content,
               doc_date, tsv::text AS tsv, embedding::text AS embedding, embedding_model, created_at, deleted_at
        FROM chunks ORDER BY id`,
  );

const partitionOf = async (db: Parameters<typeof queryRows>[0], workspaceId: string | null) =>
  (
    await queryRows<{ part: string }>(
      db,
      sql`SELECT DISTINCT tableoid::regclass::text AS part FROM chunks WHERE workspace_id IS NOT DISTINCT FROM ${workspaceId}`,
    )
  ).map((r) => r.part);

t.test('the migration moves every stored chunk into its workspace partition, unchanged', async (t) => {
  const dir = migrationsBefore();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const ctx = await buildTestApp({}, { migrationsFolder: dir });
  t.teardown(ctx.close);
  const { app } = ctx;
  const db = ctx.database.db;
  await app.services.dataSources.indexCorpus({ articles: [28, 30] });
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const bc = await createWorkspace(app, owner, 'Basecamp');
  await createTextSource(app, gh.headers, [{ title: 'DPA', content: 'Subprocessors are notified 30 days in advance. Data is encrypted at rest.' }]);
  const gone = await createTextSource(app, bc.headers, [{ title: 'SLA', content: 'Uptime of 99.9% each month, with service credits.' }], 'Old');
  await createTextSource(app, bc.headers, [{ title: 'Exit plan', content: 'On termination, data is returned within 30 days.' }]);
  const del = await app.inject({ method: 'DELETE', url: `/api/v1/data-sources/${gone.id}`, headers: bc.headers });
  t.equal(del.statusCode, 200, 'a deleted source leaves soft-deleted chunks behind');

  const partitioned = async () =>
    (
      await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid WHERE c.relname = 'chunks'`,
      )
    )[0]!.n;
  t.equal(await partitioned(), 0, 'before the migration chunks is one table');
  const before = await snapshot(db);
  t.ok(before.length > 10 && before.some((r) => r.deleted_at !== null) && before.some((r) => r.workspace_id === null), 'live, deleted and corpus chunks');

  const file = readFileSync(path.join(migrationsFolder, `${MIGRATION}.sql`), 'utf8');
  for (const statement of file.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

  t.equal(await partitioned(), 1, 'after it, chunks is partitioned');
  t.same(await snapshot(db), before, 'every chunk is there with the same values (text, vector, dates, soft deletion)');
  const corpus = await partitionOf(db, null);
  t.same(corpus, ['chunks_p00'], 'the corpus is in the partition of remainder 0');
  for (const ws of [gh.workspaceId, bc.id]) t.equal((await partitionOf(db, ws)).length, 1, 'a workspace lives in one partition');

  const [dup] = await queryRows<{ document_id: string; chunk_index: number }>(
    db,
    sql`SELECT document_id, chunk_index FROM chunks WHERE workspace_id IS NULL LIMIT 1`,
  );
  await t.rejects(
    db.execute(
      sql`INSERT INTO chunks (id, workspace_id, document_id, chunk_index, title, url, content, doc_date, embedding, embedding_model)
          SELECT 'dup', NULL, document_id, chunk_index, title, url, content, doc_date, embedding, embedding_model FROM chunks
          WHERE document_id = ${dup!.document_id} AND chunk_index = ${dup!.chunk_index}`,
    ),
    'a corpus chunk position stays unique (NULLS NOT DISTINCT)',
  );

  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/rag',
    headers: gh.headers,
    payload: { question: 'How much notice is given for new subprocessors?' },
  });
  t.equal(res.statusCode, 200);
  t.ok(
    res.json().data.sources.some((s: { content?: string; title: string }) => s.title === 'DPA'),
    'the workspace document is found after the migration',
  );
});

t.test('a search reads the partitions of its two scopes only', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const db = ctx.database.db;
  await app.services.dataSources.indexCorpus({ articles: [28] });
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  await createTextSource(app, gh.headers, [{ title: 'DPA', content: 'Subprocessors are notified 30 days in advance.' }]);
  const embedder = app.services.retrieval.embedder;
  const analysis = analyseQuestion('notice period for subprocessors');
  const [vector] = await embedder.embed([embeddingQuery(analysis)], { kind: 'query' });
  const statement = searchSql({
    vector: vector!,
    embeddingModel: embedder.id,
    textQueries: conceptQueries(analysis),
    workspaceId: gh.workspaceId,
    candidates: CANDIDATES,
    textCandidates: TEXT_CANDIDATES,
    pool: POOL,
  });
  const plan = (await queryRows<Record<string, string>>(db, sql`EXPLAIN (COSTS OFF) ${statement}`)).map((r) => Object.values(r)[0]).join('\n');
  const read = new Set(plan.match(/chunks_p\d\d/g));
  const expected = new Set([...(await partitionOf(db, gh.workspaceId)), 'chunks_p00']);
  t.same([...read].sort(), [...expected].sort(), `the plan reads ${[...expected].join(' and ')} and no other partition`);
});
