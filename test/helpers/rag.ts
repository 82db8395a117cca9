import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import type { FastifyInstance } from 'fastify';
import { queryRows, sql, type Db } from '../../src/db/client.js';
import { analyseQuestion, conceptQueries, embeddingQuery } from '../../src/rag/concepts.js';
import { CANDIDATES, POOL, TEXT_CANDIDATES, searchSql, type SearchRow, type SearchSqlParams } from '../../src/rag/retrieval.js';
import type { Embedder } from '../../src/rag/embedders/types.js';

/** The demo vendor documents shipped in data/vendor-docs (real, openly licensed). */
export const VENDOR_DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/vendor-docs');

export function vendorDoc(rel: string): string {
  return readFileSync(path.join(VENDOR_DOCS, rel), 'utf8');
}

export interface IngestDoc {
  title: string;
  content: string;
  format?: 'markdown' | 'text' | 'html' | 'json';
  url?: string;
  date?: string;
}

/** Creates a data source through the API and waits until its ingestion job finished. */
export async function ingest(app: FastifyInstance, headers: Record<string, string>, name: string, docs: IngestDoc[], timeoutMs = 60_000): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    headers,
    payload: {
      name,
      documents: docs.map((d) => ({
        title: d.title,
        content: d.content,
        format: d.format ?? 'markdown',
        ...(d.url ? { url: d.url } : {}),
        ...(d.date ? { date: d.date } : {}),
      })),
    },
  });
  if (res.statusCode !== 201) throw new Error(`create data source failed: ${res.statusCode} ${res.body}`);
  const id: string = res.json().data.dataSource.id;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await app.inject({ method: 'GET', url: `/api/v1/data-sources/${id}`, headers });
    const ds = s.json().data.dataSource;
    if (ds.status === 'ready') return id;
    if (ds.status === 'failed') throw new Error(`ingestion failed: ${JSON.stringify(ds.error)}`);
    if (Date.now() > deadline) throw new Error(`ingestion of ${name} did not finish in ${timeoutMs} ms (${ds.status})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface StreamEvent {
  event: string;
  data: Record<string, unknown> & { timestamp: number };
}

/** Parses a complete text/event-stream body. */
export function parseSse(body: string): { events: StreamEvent[]; comments: string[] } {
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (m) => events.push({ event: m.event ?? 'message', data: JSON.parse(m.data) }),
    onComment: (c) => comments.push(c.trim()),
  });
  parser.feed(body);
  return { events, comments };
}

/** POST /rag/stream in process; the whole stream is read when the answer is complete. */
export async function streamInject(app: FastifyInstance, headers: Record<string, string>, payload: unknown) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/rag/stream', headers: { ...headers, accept: 'text/event-stream' }, payload: payload as object });
  return { res, ...(res.headers['content-type']?.toString().startsWith('text/event-stream') ? parseSse(res.body) : { events: [], comments: [] }) };
}

/**
 * POST /rag/stream over a real connection: events are delivered as they arrive
 * (`onEvent` may return true to disconnect right there).
 */
export async function streamHttp(
  baseUrl: string,
  headers: Record<string, string>,
  payload: unknown,
  onEvent?: (e: StreamEvent, receivedAt: number) => boolean | void,
) {
  const controller = new AbortController();
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/v1/rag/stream`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(payload),
    signal: controller.signal,
  });
  const events: (StreamEvent & { at: number })[] = [];
  let closedByClient = false;
  if (res.headers.get('content-type')?.startsWith('text/event-stream') && res.body) {
    const parser = createParser({
      onEvent: (m) => {
        const e = { event: m.event ?? 'message', data: JSON.parse(m.data), at: performance.now() - started };
        events.push(e);
        if (!closedByClient && onEvent?.(e, e.at)) {
          closedByClient = true;
          controller.abort();
        }
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (closedByClient) break;
      }
    } catch (err) {
      if (!closedByClient) throw err;
    }
    return { status: res.status, headers: res.headers, events, body: null as unknown };
  }
  return { status: res.status, headers: res.headers, events, body: (await res.json()) as unknown };
}

/** A file of data/vendor-docs/<vendor> as a JSON document of a data source (title from its name, Markdown or text). */
export function vendorDocument(vendor: string, file: string): { title: string; format: 'markdown' | 'text'; content: string } {
  return { title: file.replace(/\.\w+$/, ''), format: file.endsWith('.md') ? 'markdown' : 'text', content: vendorDoc(`${vendor}/${file}`) };
}

/** The retrieval statement's parameters for a question, as the retrieval service builds them (default depths). */
export async function searchParams(embedder: Embedder, workspaceId: string, question: string, extra: Partial<SearchSqlParams> = {}): Promise<SearchSqlParams> {
  const analysis = analyseQuestion(question);
  const [vector] = await embedder.embed([embeddingQuery(analysis)], { kind: 'query' });
  return {
    vector: vector!,
    embeddingModel: embedder.id,
    textQueries: conceptQueries(analysis),
    workspaceId,
    candidates: CANDIDATES,
    textCandidates: TEXT_CANDIDATES,
    pool: POOL,
    ...extra,
  };
}

/** The retrieval statement run with every index scan off: sequential scans, exact distances (the reference answer). */
export function exactSearch(db: Db, p: SearchSqlParams): Promise<SearchRow[]> {
  return db.transaction(async (tx) => {
    for (const s of ['enable_indexscan', 'enable_bitmapscan', 'enable_indexonlyscan']) await tx.execute(sql.raw(`SET LOCAL ${s} = off`));
    return queryRows<SearchRow>(tx as unknown as Db, searchSql(p));
  });
}
