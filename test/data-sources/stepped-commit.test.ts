import { and, count, eq, isNull } from 'drizzle-orm';
import t from 'tap';
import { scopeOf } from '../../src/domain/scope.js';
import { chunks, documents, EMBEDDING_DIMENSIONS } from '../../src/db/schema/documents.js';
import { dataSourcesRepository, type DocumentInsert } from '../../src/modules/data-sources/repository.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

// On PGlite a transaction holds the process's only connection, so an ingestion's commit
// runs in short transactions (`commitRowsPerTransaction`) and requests are answered
// between them. These tests run the stepped commit on both databases: what it stores must
// be what the one-transaction commit stores, reads must get through while it runs, and a
// delete in the middle must leave nothing live.

const ROWS = 3;

function doc(fileId: string, n: number, title: string): DocumentInsert {
  return {
    fileId,
    corpus: null,
    sourceKey: null,
    title,
    url: `/files/${fileId}`,
    format: 'text',
    pageCount: 1,
    charCount: n * 40,
    contentHash: `hash-${fileId}-${n}`,
    docDate: new Date('2026-01-01T00:00:00Z'),
    embeddingModel: 'test',
    metadata: {},
    chunks: Array.from({ length: n }, (_, i) => {
      const embedding = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
      embedding[i % EMBEDDING_DIMENSIONS] = 1;
      return {
        chunkIndex: i,
        section: `Section ${i}`,
        page: null,
        pageEnd: null,
        content: `${title}: clause ${i} on encryption and notice periods.`,
        embedding,
      };
    }),
  };
}

t.test('stepped commit of an ingestion', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const db = ctx.database.db;
  const owner = await registerUser(app);
  const { workspaceId, workspaceSlug, orgId } = await createOrgAndWorkspace(app, owner);
  const scope = scopeOf({ id: workspaceId, slug: workspaceSlug, name: 'GitHub', orgId }, owner.id);
  const stepped = dataSourcesRepository(db, { commitRowsPerTransaction: ROWS });

  /** A data source of `files` text files (not ingested: no workers), its files and generation. */
  async function source(files: number) {
    const view = await app.services.dataSources.create(scope, {
      kind: 'json',
      name: `Source ${files}`,
      files: Array.from({ length: files }, (_, i) => ({
        filename: `f${i}.txt`,
        declaredType: 'text/plain',
        content: Buffer.from(`Policy ${i}: keys rotate every 90 days.`),
      })),
    });
    const row = (await stepped.byId(view.id))!;
    return { id: view.id, generation: row.generation, fileIds: (await stepped.files(view.id)).map((f) => f.id) };
  }
  // A read between steps, as a request arriving on a socket would be: after a turn of the event
  // loop (on PGlite a query can resolve without one, and a loop of them would never let the
  // commit's next step start).
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const liveChunks = async (dataSourceId: string) =>
    Number(
      (
        await db
          .select({ n: count() })
          .from(chunks)
          .where(and(eq(chunks.dataSourceId, dataSourceId), isNull(chunks.deletedAt)))
      )[0]!.n,
    );

  t.test('stores what one transaction stores, and reads are answered between the steps', async (t) => {
    const ds = await source(3);
    const docs = [doc(ds.fileIds[0]!, 10, 'DPA'), doc(ds.fileIds[1]!, 1, 'SLA'), doc(ds.fileIds[2]!, 7, 'Terms')];
    let done = false;
    const seen: number[] = [];
    const commit = stepped.commitIngestion(ds.id, ds.generation, docs).finally(() => (done = true));
    while (!done) {
      await nextTurn();
      seen.push(await liveChunks(ds.id));
    }
    t.equal(await commit, true);
    const between = seen.filter((n) => n > 0 && n < 18);
    t.ok(between.length >= 3, `reads answered while the commit ran saw it part-way (${seen.join(',')})`);
    t.same(
      [...between].sort((a, b) => a - b),
      between,
      'chunks only ever added during the commit',
    );

    t.equal(await liveChunks(ds.id), 18);
    const rows = await db
      .select({ documentId: chunks.documentId, chunkIndex: chunks.chunkIndex, title: chunks.title })
      .from(chunks)
      .where(eq(chunks.dataSourceId, ds.id));
    const byTitle = new Map<string, number[]>();
    for (const r of rows) byTitle.set(r.title, [...(byTitle.get(r.title) ?? []), r.chunkIndex]);
    for (const d of docs)
      t.same(
        byTitle.get(d.title)!.sort((a, b) => a - b),
        d.chunks.map((c) => c.chunkIndex),
        `${d.title}: every chunk once`,
      );
    const row = (await stepped.byId(ds.id))!;
    t.equal(row.status, 'ready');
    t.equal(row.documentCount, 3);
    t.equal(row.chunkCount, 18);
  });

  t.test('a retry of the same generation replaces, never adds', async (t) => {
    const ds = await source(2);
    const docs = [doc(ds.fileIds[0]!, 8, 'DPA'), doc(ds.fileIds[1]!, 5, 'SLA')];
    t.equal(await stepped.commitIngestion(ds.id, ds.generation, docs), true);
    t.equal(await stepped.commitIngestion(ds.id, ds.generation, docs), true);
    t.equal(await liveChunks(ds.id), 13);
    const docRows = await db.select({ id: documents.id }).from(documents).where(eq(documents.dataSourceId, ds.id));
    t.equal(docRows.length, 2, 'one document per file');
  });

  t.test('deleted part-way: the commit stops and nothing of the source is live', async (t) => {
    const ds = await source(2);
    const docs = [doc(ds.fileIds[0]!, 12, 'DPA'), doc(ds.fileIds[1]!, 12, 'SLA')];
    let done = false;
    const commit = stepped.commitIngestion(ds.id, ds.generation, docs).finally(() => (done = true));
    while (!done && (await liveChunks(ds.id)) === 0) await nextTurn();
    t.notOk(done, 'the delete arrives while the commit runs');
    t.ok(await stepped.softDelete(scope, ds.id));
    t.equal(await commit, false, 'the commit sees the delete and stops');
    t.equal(await liveChunks(ds.id), 0);
    const written = Number((await db.select({ n: count() }).from(chunks).where(eq(chunks.dataSourceId, ds.id)))[0]!.n);
    t.ok(written > 0 && written < 24, `stopped part-way (${written} of 24 written, all deleted)`);
  });

  t.test('superseded part-way by a new sync: the old generation stops, the new one writes every chunk once', async (t) => {
    const ds = await source(1);
    const docs = [doc(ds.fileIds[0]!, 15, 'DPA')];
    let done = false;
    const commit = stepped.commitIngestion(ds.id, ds.generation, docs).finally(() => (done = true));
    while (!done && (await liveChunks(ds.id)) === 0) await nextTurn();
    t.ok(await stepped.requestSync(scope, ds.id), 'a new sync is requested');
    t.equal(await commit, false);
    const row = (await stepped.byId(ds.id))!;
    t.equal(await stepped.commitIngestion(ds.id, row.generation, docs), true);
    t.equal(await liveChunks(ds.id), 15);
  });
});
