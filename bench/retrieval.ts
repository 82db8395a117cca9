/**
 * Retrieval and ingestion benchmark (docs/retrieval.md).
 *
 *   node --import=tsx bench/retrieval.ts [--chunks 10000] [--queries 300] [--workspaces 20]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import=tsx bench/retrieval.ts --chunks 100000
 *
 * On a fresh database (PGlite in memory, or a new PostgreSQL database created beside
 * DATABASE_URL and dropped at the end):
 * 1. ingestion: the real vendor documents (data/vendor-docs) go through the pipeline
 *    (parse -> sections -> chunks -> embeddings -> one insert transaction), chunks/s;
 * 2. load: N chunks spread over W workspaces, written through the same repository
 *    path (HNSW and GIN indexes maintained on insert), chunks/s; the DORA corpus too;
 * 3. retrieval: Q calls of `services.retrieval.search` (embedding + the one SQL
 *    statement) with real questions in random workspaces: p50 / p95 / p99;
 * 4. the raw SQL of one call and its EXPLAIN ANALYZE plan.
 */
import './lib/load.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { loadConfig } from '../src/config.js';
import { createDatabase, queryRows, sql, type Database } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { chunkAndEmbed, indexFingerprint } from '../src/ingest/pipeline.js';
import { parseFile } from '../src/ingest/parse.js';
import { newId } from '../src/lib/ids.js';
import { complianceRepository } from '../src/modules/compliance/repository.js';
import { complianceService } from '../src/modules/compliance/service.js';
import { doraCorpusDocuments } from '../src/modules/data-sources/corpus.js';
import { dataSourcesRepository, type DocumentInsert } from '../src/modules/data-sources/repository.js';
import { LocalHashEmbedder } from '../src/rag/embedders/local.js';
import { analyseQuestion, conceptQueries, embeddingQuery } from '../src/rag/concepts.js';
import { graphIndexName, workspaceGraphs } from '../src/rag/graphs.js';
import {
  CANDIDATES,
  EF_SEARCH,
  EXACT_KNN_MAX,
  POOL,
  TEXT_CANDIDATES,
  isWebsearchSyntax,
  retrievalService,
  searchRows,
  searchSql,
  type SearchSqlParams,
} from '../src/rag/retrieval.js';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '300' },
    workspaces: { type: 'string', default: '20' },
    'chunks-per-doc': { type: 'string', default: '50' },
    // Bulk load: drop the HNSW and GIN indexes, insert, build them again (what an
    // operator does for a large initial import). Without it every chunk goes through
    // the ingestion repository with the indexes maintained row by row.
    bulk: { type: 'boolean', default: false },
    // PostgreSQL: keep the bench database (its name is printed) instead of dropping it, or
    // measure again on a database kept by an earlier run (no ingestion, no load).
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
    // hnsw.ef_search values at which the HNSW index's filtered recall@10 is measured.
    ef: { type: 'string', default: '100,200,400' },
  },
});
const N = Number(values.chunks);
const Q = Number(values.queries);
const W = Number(values.workspaces);
const PER_DOC = Number(values['chunks-per-doc']);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VENDOR_DOCS = path.join(root, 'data/vendor-docs');
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const chunking = { size: config.ingest.chunkSize, overlap: config.ingest.chunkOverlap };
const embedder = new LocalHashEmbedder(384);

/** Deterministic PRNG (mulberry32) so that every run loads the same corpus. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(42);
const pick = <T>(a: T[]): T => a[Math.floor(rand() * a.length)]!;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function freshDatabase(): Promise<{ database: Database; drop(): Promise<void>; label: string }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await createDatabase({ pgliteDataDir: 'memory://' });
    await runMigrations(database);
    return { database, drop: () => database.close(), label: 'PGlite (in memory, WASM, single connection)' };
  }
  const name = values.reuse ?? `bench_${newId().replace(/-/g, '').slice(0, 16)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  if (!values.reuse) await admin.unsafe(`CREATE DATABASE "${name}"`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await createDatabase({ url: u.toString(), max: 4 });
  await runMigrations(database);
  const [{ version }] = await admin<{ version: string }[]>`select version()`;
  return {
    database,
    label: `PostgreSQL ${version.split(' ')[1]} (${u.host}, database ${name})`,
    drop: async () => {
      await database.close();
      if (!values.keep && !values.reuse) await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

const { database, drop, label } = await freshDatabase();
const db = database.db;
const repo = dataSourcesRepository(db);
console.log(`# retrieval benchmark — ${label}`);
console.log(
  `# ${values.reuse ? 'reused database' : `${N} chunks over ${W} workspaces`}, ${Q} queries, embedder ${embedder.id}, chunk size ${chunking.size}/${chunking.overlap}, node ${process.version}`,
);

try {
  const sections = [
    'Definitions',
    'Term and termination',
    'Data protection',
    'Security incidents',
    'Audit rights',
    'Subprocessors',
    'Service levels',
    'Exit and transition',
    'Liability',
    'Governing law',
  ];
  const workspaces: string[] = [];
  if (values.reuse) {
    for (const r of await queryRows<{ id: string }>(db, sql`select id from workspaces where name like 'Vendor %' order by name`)) workspaces.push(r.id);
    console.log(`reusing ${values.reuse}: ${workspaces.length} workspaces`);
  } else {
    // Tenancy rows the chunks belong to (plain inserts: the bench needs no API users).
    const userId = newId();
    const orgId = newId();
    await db.execute(sql`insert into users (id, email, name, password_hash) values (${userId}, ${`bench-${userId}@example.com`}, 'Bench', 'x')`);
    await db.execute(sql`insert into organizations (id, name) values (${orgId}, 'Bench Bank')`);
    for (let i = 0; i < W; i++) {
      const id = newId();
      await db.execute(
        sql`insert into workspaces (id, workspace_id, org_id, owner_id, name) values (${id}, ${`bench-${i}-${id.slice(0, 8)}`}, ${orgId}, ${userId}, ${`Vendor ${i}`})`,
      );
      workspaces.push(id);
    }
    const newSource = async (ws: string, name: string) => {
      const row = await repo.create({ workspaceId: ws }, { name, description: null, kind: 'upload', createdBy: userId, totalBytes: 0 }, []);
      return row;
    };

    // 1. Ingestion of the real vendor documents through the pipeline.
    const vendorFiles = ['github', 'basecamp'].flatMap((v) =>
      readdirSync(path.join(VENDOR_DOCS, v))
        .sort()
        .map((f) => path.join(VENDOR_DOCS, v, f)),
    );
    const ingestSource = await newSource(workspaces[0]!, 'vendor documents');
    const t0 = performance.now();
    const docs: DocumentInsert[] = [];
    let parseMs = 0;
    let embedMs = 0;
    for (const file of vendorFiles) {
      const buf = readFileSync(file);
      const tp = performance.now();
      const parsed = await parseFile(buf, path.basename(file), null, config.ingest);
      parseMs += performance.now() - tp;
      const te = performance.now();
      const chunks = await chunkAndEmbed(parsed.doc, parsed.doc.title ?? path.basename(file), { ...chunking, embedder });
      embedMs += performance.now() - te;
      const fileRow = newId();
      await db.execute(
        sql`insert into data_source_files (id, data_source_id, workspace_id, position, filename, format, mime_type, size_bytes, sha256, content) values (${fileRow}, ${ingestSource.id}, ${workspaces[0]!}, ${docs.length}, ${path.basename(file)}, ${parsed.sniffed.format}, ${parsed.sniffed.mimeType}, ${buf.length}, 'x', ${buf})`,
      );
      docs.push({
        fileId: fileRow,
        corpus: null,
        sourceKey: null,
        title: parsed.doc.title ?? path.basename(file),
        url: '/bench',
        format: parsed.sniffed.format,
        pageCount: parsed.doc.pageCount,
        charCount: parsed.chars,
        contentHash: indexFingerprint(buf, chunking, embedder.id),
        docDate: new Date(),
        embeddingModel: embedder.id,
        metadata: {},
        chunks,
      });
    }
    const ti = performance.now();
    await repo.commitIngestion(ingestSource.id, ingestSource.generation, docs);
    const insertMs = performance.now() - ti;
    const ingestMs = performance.now() - t0;
    const ingestChunks = docs.reduce((n, d) => n + d.chunks.length, 0);
    const ingestChars = docs.reduce((n, d) => n + d.charCount, 0);
    console.log(`\n## ingestion (pipeline: parse -> sections -> chunks -> embeddings -> insert transaction)`);
    console.log(
      `${vendorFiles.length} vendor documents, ${(ingestChars / 1024).toFixed(0)} KiB of text -> ${ingestChunks} chunks in ${ms(ingestMs)}: ${(ingestChunks / (ingestMs / 1000)).toFixed(0)} chunks/s`,
    );
    console.log(
      `  parse ${ms(parseMs)}, chunk+embed ${ms(embedMs)}, insert ${ms(insertMs)} (${(ingestChunks / (insertMs / 1000)).toFixed(0)} chunks/s into the indexed table)`,
    );

    // 2. The DORA corpus and N synthetic chunks made of real sentences.
    const compliance = complianceService(complianceRepository(db));
    await compliance.loadReferenceData();
    const corpus = await doraCorpusDocuments(compliance);
    const corpusDocs: DocumentInsert[] = [];
    for (const c of corpus) {
      corpusDocs.push({
        fileId: null,
        corpus: 'dora',
        sourceKey: c.sourceKey,
        title: c.title,
        url: c.url,
        format: 'text',
        pageCount: 1,
        charCount: c.text.length,
        contentHash: 'x',
        docDate: c.date,
        embeddingModel: embedder.id,
        metadata: {},
        chunks: await chunkAndEmbed(c.parsed, c.title, { ...chunking, embedder }),
      });
    }
    await repo.writeCorpus(
      'dora',
      corpusDocs,
      corpus.map((c) => c.sourceKey),
    );
    const sentences = [...vendorFiles.map((f) => readFileSync(f, 'utf8')), ...corpus.map((c) => c.text)]
      .join('\n')
      .split(/(?<=[.;:])\s+|\n+/)
      .map((s) =>
        s
          .replace(/[#*_>|`{}%]+/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      )
      .filter((s) => s.length > 40 && s.length < 400);
    // The HNSW and GIN indexes of chunks as the migrations made them, dropped for a bulk load and built again after it.
    const INDEXES = values.bulk
      ? await queryRows<{ name: string; ddl: string }>(
          db,
          sql`select indexname as name, replace(indexdef, ' ON ONLY ', ' ON ') as ddl from pg_indexes where tablename = 'chunks' and (indexdef like '%USING hnsw%' or indexdef like '%USING gin%')`,
        )
      : [];
    for (const { name } of INDEXES) await db.execute(sql.raw(`DROP INDEX "${name}"`));
    const loadStart = performance.now();
    let loaded = 0;
    let embedLoadMs = 0;
    let docNo = 0;
    let lastReport = performance.now();
    while (loaded < N) {
      const ws = workspaces[docNo % W]!;
      const source = await newSource(ws, `synthetic ${docNo}`);
      const count = Math.min(PER_DOC, N - loaded);
      const title = `Vendor ${docNo % W} policy ${docNo}`;
      const texts: { section: string; content: string }[] = [];
      for (let i = 0; i < count; i++) {
        let content = '';
        while (content.length < 700) content += `${pick(sentences)} `;
        texts.push({ section: `${title} > ${pick(sections)}`, content: content.trim() });
      }
      const te = performance.now();
      const vectors = await embedder.embed(texts.map((x) => `${title}\n${x.section}\n${x.content}`));
      embedLoadMs += performance.now() - te;
      const date = new Date(Date.UTC(2019 + (docNo % 6), docNo % 12, 1 + (docNo % 28)));
      const fileRow = newId();
      await db.execute(
        sql`insert into data_source_files (id, data_source_id, workspace_id, position, filename, format, mime_type, size_bytes, sha256, content) values (${fileRow}, ${source.id}, ${ws}, 0, 'synthetic.txt', 'text', 'text/plain', 0, 'x', ${Buffer.alloc(0)})`,
      );
      await repo.commitIngestion(source.id, source.generation, [
        {
          fileId: fileRow,
          corpus: null,
          sourceKey: null,
          title,
          url: '/bench',
          format: 'text',
          pageCount: 1,
          charCount: 0,
          contentHash: 'x',
          docDate: date,
          embeddingModel: embedder.id,
          metadata: {},
          chunks: texts.map((x, i) => ({ chunkIndex: i, section: x.section, page: null, pageEnd: null, content: x.content, embedding: vectors[i]! })),
        },
      ]);
      loaded += count;
      docNo += 1;
      if (performance.now() - lastReport > 15_000) {
        lastReport = performance.now();
        console.error(`  ... ${loaded}/${N} chunks loaded (${(loaded / ((performance.now() - loadStart) / 1000)).toFixed(0)} chunks/s)`);
      }
    }
    let indexMs = 0;
    if (values.bulk) {
      const ti = performance.now();
      await db.transaction(async (tx) => {
        if (database.kind === 'postgres') await tx.execute(sql.raw(`SET LOCAL maintenance_work_mem = '4GB'`));
        for (const { ddl } of INDEXES) await tx.execute(sql.raw(ddl));
      });
      indexMs = performance.now() - ti;
    }
    const loadMs = performance.now() - loadStart;
    const [{ total }] = await queryRows<{ total: number }>(db, sql`select count(*)::int as total from chunks where deleted_at is null`);
    console.log(`\n## load`);
    console.log(
      `${N} chunks in ${docNo} documents over ${W} workspaces in ${(loadMs / 1000).toFixed(1)} s: ${(N / (loadMs / 1000)).toFixed(0)} chunks/s (embedding ${(embedLoadMs / 1000).toFixed(1)} s of it${values.bulk ? `; bulk: inserted without the HNSW/GIN indexes, which were then built in ${(indexMs / 1000).toFixed(1)} s` : '; HNSW and GIN indexes maintained on every insert'}); table holds ${total} live chunks (with DORA corpus and vendor documents)`,
    );
  }
  // The steady state of a served table: autovacuum has set the visibility map (the workspace's
  // chunk count is then an index-only scan) and the statistics; an operator runs the same after a
  // bulk import.
  if (database.kind === 'postgres') await db.execute(sql`VACUUM (ANALYZE) chunks`);

  // 3. Retrieval.
  const retrieval = retrievalService({ db, embedder });
  const questions = [
    'What is the notice period for new subprocessors?',
    'How quickly are security incidents notified to customers?',
    'Where is customer data stored and processed?',
    'What uptime does the service level agreement guarantee?',
    'Can the financial entity audit the provider?',
    'What happens to our data after termination of the contract?',
    'Which law governs the agreement?',
    'How often are backups taken?',
    'What are the key contractual provisions for ICT services supporting critical functions?',
    'Does the provider hold an ISO 27001 certification?',
    'exit strategy transition to another provider',
    'liability cap and service credits',
    'government requests for user data',
    'encryption at rest and in transit',
    'register of information on contractual arrangements',
  ];
  const filtersFor = (i: number) =>
    i % 5 === 1
      ? { section: pick(sections) }
      : i % 5 === 2
        ? { dateRange: { start: '2021-01-01', end: '2022-12-31' } }
        : i % 5 === 3
          ? { page: '1' }
          : undefined;
  for (let i = 0; i < 10; i++) await retrieval.search({ workspaceId: pick(workspaces), query: pick(questions) }); // warm-up
  const timings: number[] = [];
  const filtered: number[] = [];
  let returned = 0;
  for (let i = 0; i < Q; i++) {
    const filters = filtersFor(i);
    const t = performance.now();
    const res = await retrieval.search({ workspaceId: pick(workspaces), query: pick(questions), filters, limit: 5 });
    const d = performance.now() - t;
    (filters ? filtered : timings).push(d);
    returned += res.length;
  }
  const all = [...timings, ...filtered];
  console.log(`\n## retrieval: services.retrieval.search (embed question + one SQL statement), limit 5, ${Q} calls`);
  console.log(
    `all       p50 ${ms(pct(all, 50))}  p95 ${ms(pct(all, 95))}  p99 ${ms(pct(all, 99))}  mean ${ms(all.reduce((a, b) => a + b, 0) / all.length)}  (${(returned / Q).toFixed(1)} sources per call)`,
  );
  console.log(`unfiltered p50 ${ms(pct(timings, 50))}  p95 ${ms(pct(timings, 95))}  (${timings.length} calls)`);
  console.log(`filtered  p50 ${ms(pct(filtered, 50))}  p95 ${ms(pct(filtered, 95))}  (${filtered.length} calls: section, dateRange, page)`);

  // 3b. The statement alone (what the service runs for one call, without embedding and
  // rerank), on the same kind of calls; and the HNSW index's recall@10 against exact kNN
  // for a workspace-filtered search (the kNN arm of a workspace above EXACT_KNN_MAX).
  const settings = async (tx: Database['db'], ef = EF_SEARCH) => {
    await tx.execute(sql.raw(`SET LOCAL hnsw.iterative_scan = relaxed_order`));
    await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${ef}`));
  };
  const paramsFor = async (workspaceId: string, question: string, filters?: ReturnType<typeof filtersFor>): Promise<SearchSqlParams> => {
    const analysis = analyseQuestion(question);
    const [vector] = await embedder.embed([embeddingQuery(analysis)]);
    return {
      vector: vector!,
      embeddingModel: embedder.id,
      textQueries: isWebsearchSyntax(question) ? [question] : conceptQueries(analysis),
      workspaceId,
      filters,
      candidates: CANDIDATES,
      textCandidates: TEXT_CANDIDATES,
      pool: POOL,
    };
  };
  const stmt: number[] = [];
  const stmtUnfiltered: number[] = [];
  for (let i = 0; i < Q; i++) {
    const filters = filtersFor(i);
    const p = await paramsFor(pick(workspaces), pick(questions), filters);
    const t = performance.now();
    await searchRows(db, p);
    const d = performance.now() - t;
    stmt.push(d);
    if (!filters) stmtUnfiltered.push(d);
  }
  console.log(`\n## the retrieval statement alone (one transaction: settings + statement), ${Q} calls`);
  console.log(`all       p50 ${ms(pct(stmt, 50))}  p95 ${ms(pct(stmt, 95))}  p99 ${ms(pct(stmt, 99))}`);
  console.log(`unfiltered p50 ${ms(pct(stmtUnfiltered, 50))}  p95 ${ms(pct(stmtUnfiltered, 95))}`);
  console.log(`workspace kNN arm: exact up to ${EXACT_KNN_MAX} live chunks in the workspace (recall 1), HNSW above`);
  const HNSW_ONLY = ['enable_sort', 'enable_incremental_sort', 'enable_bitmapscan', 'enable_seqscan'];
  const knn10 = async (workspaceId: string, vector: number[], mode: 'hnsw' | 'exact', ef = EF_SEARCH) =>
    db.transaction(async (tx) => {
      await settings(tx as never, ef);
      // hnsw: every other way to order the workspace's rows is off (after VACUUM the planner
      // would otherwise sort the workspace's rows itself, which is the exact answer).
      if (mode === 'hnsw') for (const off of HNSW_ONLY) await tx.execute(sql.raw(`SET LOCAL ${off} = off`));
      else await tx.execute(sql.raw(`SET LOCAL enable_indexscan = off`));
      const v = `[${vector.join(',')}]`;
      const t = performance.now();
      // As the service's kNN arm does: CANDIDATES rows from the scan (an iterative scan in
      // relaxed order returns them roughly ordered), ranked by their distance; the best 10 kept.
      const rows = await queryRows<{ id: string; d: number }>(
        tx as never,
        sql`select id, embedding <=> ${v}::vector as d from chunks where deleted_at is null and workspace_id = ${workspaceId} order by embedding <=> ${v}::vector limit ${mode === 'hnsw' ? CANDIDATES : 10}`,
      );
      const ms = performance.now() - t;
      const best = rows.sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1)).slice(0, 10);
      return { ids: best.map((r) => r.id), dists: best.map((r) => Number(r.d)), ms };
    });
  // The same probes at every ef_search; the exact answer once per probe.
  const knnPlan = async (workspaceId: string) => {
    const plan = await db.transaction(async (tx) => {
      for (const off of HNSW_ONLY) await tx.execute(sql.raw(`SET LOCAL ${off} = off`));
      const v = `[${Array.from({ length: embedder.dimensions }, () => 0.1).join(',')}]`;
      return queryRows<Record<string, string>>(
        tx as never,
        sql`EXPLAIN (COSTS OFF) select id from chunks where deleted_at is null and workspace_id = ${workspaceId} order by embedding <=> ${v}::vector limit 10`,
      );
    });
    return plan.map((r) => Object.values(r)[0]).join(' ');
  };
  const planText = await knnPlan(workspaces[0]!);
  // An ordered index scan is the HNSW index (the parent's, or a partition's chunks_pNN_embedding_idx).
  if (!/Index Scan using \S*(hnsw|embedding)\S* .*Order By/.test(planText)) throw new Error(`the recall probe does not read the HNSW index: ${planText}`);
  const RECALL_QUERIES = 30;
  // A few workspaces, every probe in one of them: their own graphs (below) take seconds each to build.
  const probeWorkspaces = Array.from(new Set(Array.from({ length: 4 }, () => pick(workspaces))));
  const probes: { ws: string; vector: number[]; truth: string[]; tenth: number; exactMs: number }[] = [];
  const probe = async (ws: string, vector: number[]) => {
    const exact = await knn10(ws, vector, 'exact');
    probes.push({ ws, vector, truth: exact.ids, tenth: exact.dists[exact.dists.length - 1] ?? 0, exactMs: exact.ms });
  };
  for (let i = 0; i < RECALL_QUERIES; i++) {
    const [vector] = await embedder.embed([embeddingQuery(analyseQuestion(pick(questions)))]);
    await probe(pick(probeWorkspaces), vector!);
  }
  // Harder probes: the embedding of a passage of another workspace (a query close to many stored
  // vectors, far from the filtered workspace's), which makes the graph walk longer.
  for (let i = 0; i < RECALL_QUERIES; i++) {
    const [row] = await queryRows<{ v: string }>(
      db,
      sql`select embedding::text as v from chunks where workspace_id = ${pick(workspaces)} and deleted_at is null offset ${Math.floor(rand() * 50)} limit 1`,
    );
    await probe(pick(probeWorkspaces), JSON.parse(row!.v) as number[]);
  }
  const exactTimes = probes.map((p) => p.exactMs);
  console.log(`exact kNN of one workspace (limit 10): p50 ${ms(pct(exactTimes, 50))}; probes in ${probeWorkspaces.length} workspaces`);
  // recall@10: the exact 10 found (by id); and as ann-benchmarks counts it, the 10 returned whose
  // distance is within the exact tenth's (a tie at the tenth place counts, whichever row it is).
  const recallAt = async (ef: number, graph: string) => {
    let found = 0;
    let close = 0;
    let wanted = 0;
    const times: number[] = [];
    for (const p of probes) {
      const approx = await knn10(p.ws, p.vector, 'hnsw', ef);
      const got = new Set(approx.ids);
      times.push(approx.ms);
      wanted += p.truth.length;
      found += p.truth.filter((id) => got.has(id)).length;
      close += Math.min(p.truth.length, approx.dists.filter((d) => d <= p.tenth + 1e-6).length);
    }
    console.log(
      `HNSW recall@10 against exact kNN, ${graph}, iterative scan, best 10 of ${CANDIDATES} by distance, ef_search ${ef}: ${(found / wanted).toFixed(3)} by id, ${(close / wanted).toFixed(3)} by distance (${probes.length} queries, half questions, half passages; kNN p50 ${ms(pct(times, 50))})`,
    );
  };
  const efs = values.ef.split(',').map(Number);
  for (const ef of efs) await recallAt(ef, "the partition's graph, workspace-filtered");
  // The same probes once each workspace has a graph of its own (what a workspace above
  // EXACT_KNN_MAX gets after its ingestion, src/rag/graphs.ts), built here whatever its size.
  {
    const graphs = workspaceGraphs({ database, threshold: 0, buildMemory: '1GB' });
    const t = performance.now();
    for (const ws of probeWorkspaces) await graphs.ensure(ws);
    console.log(`own graphs of the ${probeWorkspaces.length} probe workspaces built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const ownPlan = await knnPlan(probeWorkspaces[0]!);
    if (!ownPlan.includes(graphIndexName(probeWorkspaces[0]!))) throw new Error(`the probe does not read the workspace's own graph: ${ownPlan}`);
    try {
      for (const ef of efs) await recallAt(ef, "the workspace's own graph");
    } finally {
      for (const ws of probeWorkspaces) await graphs.drop(ws);
    }
  }

  // 3c. POST /api/v1/rag in process (app.inject: routing, auth, workspace access, retrieval,
  // the extractive answer, the query log), same kind of calls, against the statement alone.
  {
    const { buildApp } = await import('../src/app.js');
    const { registerUser, testConfig } = await import('../test/helpers/app.js');
    const app = await buildApp({ config: testConfig({ workers: 0 }), database });
    await app.ready();
    try {
      const user = await registerUser(app);
      const [{ org_id: orgOf }] = await queryRows<{ org_id: string }>(db, sql`select org_id from workspaces where id = ${workspaces[0]!}`);
      await db.execute(sql`insert into organization_members (org_id, user_id, role) values (${orgOf}, ${user.id}, 'org_admin')`);
      const ask = async (i: number) => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/rag',
          headers: { ...user.headers, 'x-workspace-id': pick(workspaces) },
          payload: { question: pick(questions), filters: filtersFor(i) },
        });
        if (res.statusCode !== 200) throw new Error(`POST /rag answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      };
      for (let i = 0; i < 10; i++) await ask(i);
      const rag: number[] = [];
      for (let i = 0; i < Q; i++) {
        const t = performance.now();
        await ask(i);
        rag.push(performance.now() - t);
      }
      console.log(`\n## POST /api/v1/rag (in process, extractive answer), ${Q} calls`);
      console.log(`all       p50 ${ms(pct(rag, 50))}  p95 ${ms(pct(rag, 95))}  = ${(pct(rag, 50) / pct(stmt, 50)).toFixed(2)}x the statement's p50`);
      // What any request of a workspace costs before it does its own work (routing, the user,
      // the access row, one read, the envelope): the floor under what `/rag` adds to the statement.
      const floor: number[] = [];
      for (let i = 0; i < Q + 10; i++) {
        const t = performance.now();
        const res = await app.inject({
          method: 'GET',
          url: '/api/v1/conversations?limit=1',
          headers: { ...user.headers, 'x-workspace-id': pick(workspaces) },
        });
        if (res.statusCode !== 200) throw new Error(`GET /conversations answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
        if (i >= 10) floor.push(performance.now() - t);
      }
      console.log(
        `/rag adds ${ms(pct(rag, 50) - pct(stmt, 50))} to the statement's p50; a workspace-scoped read (GET /conversations?limit=1) takes p50 ${ms(pct(floor, 50))}`,
      );
    } finally {
      await app.close();
    }
  }

  // 4. The statement and its plan.
  const question = questions[0]!;
  const [vector] = await embedder.embed([question]);
  const statement = searchSql({
    vector: vector!,
    embeddingModel: embedder.id,
    textQueries: conceptQueries(analyseQuestion(question)),
    workspaceId: workspaces[1]!,
    candidates: CANDIDATES,
    textCandidates: TEXT_CANDIDATES,
    pool: POOL,
  });
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  console.log(`\n## the SQL of one call (run after SET LOCAL hnsw.iterative_scan = relaxed_order, hnsw.ef_search = ${EF_SEARCH})`);
  console.log(text.trim());
  console.log(
    `-- params: $1 = [${(params[0] as string).slice(1, 40)}...] (${embedder.dimensions} numbers), ${params
      .slice(1)
      .map((p, i) => `$${i + 2} = ${JSON.stringify(p)}`)
      .join(', ')}`,
  );
  const plan = await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL hnsw.iterative_scan = relaxed_order`));
    await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${EF_SEARCH}`));
    return queryRows<Record<string, string>>(tx as never, sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${statement}`);
  });
  console.log(`\n## EXPLAIN ANALYZE`);
  for (const r of plan) console.log(Object.values(r)[0]);
} finally {
  await drop();
}
