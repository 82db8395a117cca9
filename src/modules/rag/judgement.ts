import { analyzeGaps, obligationQuery, type Vectors } from '../../compliance/gapAnalysis.js';
import { obligationAsked, verdictOf } from '../../compliance/judgement.js';
import { splitSentences } from '../../compliance/passages.js';
import { VENDOR_OBLIGATIONS, type VendorObligation } from '../../compliance/obligations.js';
import type { GapResult } from '../../domain/gap.js';
import type { Source } from '../../domain/sources.js';
import { blocksFromChunks, leadInsOf, type ChunkOptions } from '../../ingest/chunker.js';
import { indexPassage } from '../../rag/concepts.js';
import { asksForDefinition, asksForRows, definitionAnswers, definitionFit, isLongRow, readQuestion, weighEvidence } from '../../rag/evidence.js';
import type { Judgement } from '../../rag/types.js';
import type { ChunkRow, RagRepository } from './repository.js';

/**
 * Judgement questions through the obligation engine (docs/rag.md, "Judgement questions"):
 * the obligation a question asks about (src/compliance/judgement.ts) is read against the
 * workspace's live documents by the engine the assessments use (`analyzeGaps`, with the
 * same embedder for relevance), and the passages that decided (the requirement's article,
 * the evidence, the limiting clauses) are added to the answer's sources. The engine runs
 * once over every obligation when a workspace's first judgement question is asked, and its
 * results are kept until the workspace's documents, the corpus or the vendor's names change.
 */

export interface JudgementService {
  /**
   * A "what is / define" question: the DORA Article 3 passage defining what it asks about, when
   * retrieval did not return it (to be added after `sources`); null otherwise.
   */
  definition(question: string, sources: Source[]): Promise<Source | null>;
  /**
   * A question asking for the entries of a table ("which subprocessors …"): the passages holding
   * the rows of a table that follow a retrieved passage of the vendor's documents (the intro of
   * a subprocessor list is retrieved, its table is the next chunk), at most 2, to be added after `sources`.
   */
  tableRows(question: string, sources: Source[]): Promise<Source[]>;
  /**
   * The rest of a list a retrieved passage holds part of: a passage that starts inside a list
   * starts with the list's lead-in (src/ingest/chunker.ts), and its first points are in the
   * passage before, as the last ones may be in the one after. The other passages of the same
   * document (or DORA article) that hold the same lead-in with points, at most 2, from the
   * first 3 retrieved passages, to be added after `sources`.
   */
  listParts(sources: Source[]): Promise<Source[]>;
  /** The engine's result for every obligation over the workspace's live documents (empty: none indexed), read once per version of them. */
  obligationResults(workspaceId: string): Promise<Map<string, GapResult>>;
  /** The judgement of a question in a workspace, with the sources it adds after `sources`; null when the question is not one. */
  judge(
    scope: { workspaceId: string; workspaceName?: string },
    question: string,
    sources: Source[],
  ): Promise<{ judgement: Judgement; sources: Source[] } | null>;
}

interface WorkspaceReading {
  key: string;
  chunks: ChunkRow[];
  /** The engine's result per obligation id. */
  results: Map<string, GapResult>;
  /** The DORA article's passage holding an obligation's text, by obligation id. */
  articles: Map<string, ChunkRow | null>;
  vendorNames: string[];
  /** Proper names of the documents (`37signals`, `HackerOne`): a question using one is about the vendor. */
  names: Set<string>;
}

const CACHE_MAX = 32;
/** A table as stored: a Markdown row (`| AWS | Hosting | United States |`) or a row as the chunker writes it (`Name: AWS; Location: United States`). */
const TABLE_LINE = /^\|.*\|.*\|$|^[^:;]{2,60}: [^;]{1,300}(?:; [^:;]{2,60}: [^;]{0,300}){1,}$/;
const isTableLine = (line: string) => TABLE_LINE.test(line) || isLongRow(line);
/** A proper name as written: `GitHub`, `37signals`, `HackerOne` (a capital or a figure, then a small letter). */
const PROPER_NAME = /\b(?:\p{Lu}[\p{L}\p{N}-]*\p{Ll}[\p{L}\p{N}-]*|\p{N}+\p{Ll}[\p{L}\p{N}-]*)\b/gu;
/** Capitalised words of questions that name the regulation or its parts, not the vendor. */
const NOT_A_VENDOR =
  /^(DORA|Art|Article|Articles|Regulation|Union|European|EU|Member|State|States|Commission|Does|Do|Is|Are|Can|Could|Will|Would|What|Which|How|When|Where|Who|Under|Per|For|If|As|The|Our|We|They|Their|Please)$/;
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The vendor names the question uses: the workspace's name, or a proper name found in the vendor's documents only. */
function namesVendor(question: string, workspaceName: string, sources: Source[]): boolean {
  if (workspaceName && new RegExp(`\\b${workspaceName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(question)) return true;
  if (/\b(they|their|them)\b/i.test(question)) return true;
  const reading = readQuestion(question);
  weighEvidence(reading, sources);
  return reading.namesVendor;
}

/** A passage as a source of the answer, numbered `n`. */
const sourceOf = (r: ChunkRow, n: number, score = 0): Source => ({
  id: r.id,
  sourceNumber: n,
  title: r.title,
  content: r.content,
  url: r.url,
  section: r.section,
  score,
  documentId: r.document_id,
  dataSourceId: r.data_source_id,
  page: r.page === null ? null : String(r.page),
  workspaceId: r.workspace_id,
});

/** The DORA article's passage holding the obligation's text (else the article's first passage). */
async function articleChunk(repo: RagRepository, o: VendorObligation, doraText: string): Promise<ChunkRow | null> {
  const rows = await repo.articleChunks(o.article);
  const needle = squash(o.dora.match).toLowerCase();
  const text = squash(doraText).toLowerCase().slice(0, 60);
  return (
    rows.find((r) => squash(r.content).toLowerCase().includes(needle)) ??
    rows.find((r) => text && squash(r.content).toLowerCase().includes(text)) ??
    rows[0] ??
    null
  );
}

export function judgementService(deps: {
  repo: RagRepository;
  embedder?: { id: string; embed(texts: string[], opts?: { kind?: 'query' | 'document' }): Promise<number[][]> };
  chunking: ChunkOptions;
  /** The obligation's text in DORA (the compliance reference data), as the assessments quote it. */
  doraText: (o: VendorObligation) => Promise<string>;
  /** Names the vendor goes by (workspace name, legal name). */
  vendorNames: (workspaceId: string) => Promise<string[]>;
}): JudgementService {
  const cache = new Map<string, WorkspaceReading>();

  /** The workspace's live chunks in document order, kept per version of its documents. */
  const chunkCache = new Map<string, { key: string; chunks: ChunkRow[] }>();
  async function chunksOf(workspaceId: string): Promise<ChunkRow[]> {
    const key = await deps.repo.documentsStamp(workspaceId);
    const hit = chunkCache.get(workspaceId);
    if (hit && hit.key === key) return hit.chunks;
    const chunks = await deps.repo.workspaceChunks(workspaceId);
    if (chunkCache.size >= CACHE_MAX) chunkCache.delete(chunkCache.keys().next().value!);
    chunkCache.set(workspaceId, { key, chunks });
    return chunks;
  }

  /**
   * The workspace's documents read once per version of them (and of the DORA corpus, and of the
   * vendor's names): their sentences, their vectors, and the engine's result for every
   * obligation, computed as the assessments compute it (all obligations in one `analyzeGaps`).
   */
  async function readingOf(workspaceId: string): Promise<WorkspaceReading> {
    const vendorNames = (await deps.vendorNames(workspaceId)).filter(Boolean);
    const key = `${await deps.repo.documentsAndCorpusStamp(workspaceId)}\u0000${vendorNames.join('\u0000')}`;
    const hit = cache.get(workspaceId);
    if (hit && hit.key === key) return hit;
    const chunks = await chunksOf(workspaceId);
    const byDoc = new Map<string, ChunkRow[]>();
    for (const c of chunks) byDoc.set(c.document_id, [...(byDoc.get(c.document_id) ?? []), c]);
    // The documents' text as indexed, as GET /documents/:id shows it (blocks rebuilt from the chunks).
    const docs = [...byDoc.entries()].map(([id, rows]) => ({
      id,
      filename: rows[0]!.title,
      title: rows[0]!.title,
      blocks: blocksFromChunks(
        rows.map((r) => ({ chunkIndex: r.chunk_index, section: r.section, content: r.content, page: r.page })),
        deps.chunking,
      ),
    }));
    const sentences = splitSentences(docs);
    let vectors: Vectors | undefined;
    if (deps.embedder && sentences.length) {
      const obligations = await deps.embedder.embed(VENDOR_OBLIGATIONS.map(obligationQuery), { kind: 'query' });
      const sentenceVectors = await deps.embedder.embed(
        sentences.map((s) => (s.section ? `${s.section}: ${s.text}` : s.text)),
        { kind: 'document' },
      );
      vectors = { obligations, sentences: sentenceVectors };
    }
    const texts = new Map<string, string>();
    for (const o of VENDOR_OBLIGATIONS) texts.set(o.id, await deps.doraText(o));
    const results = new Map<string, GapResult>();
    if (sentences.length) {
      for (const r of analyzeGaps(VENDOR_OBLIGATIONS, sentences, { vectors, doraText: (o) => texts.get(o.id) ?? '', vendorNames })) {
        results.set(r.obligationId, r);
      }
    }
    const names = new Set<string>();
    for (const c of chunks) for (const m of c.content.matchAll(PROPER_NAME)) names.add(m[0]);
    const reading: WorkspaceReading = { key, chunks, results, articles: new Map(), vendorNames, names };
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(workspaceId, reading);
    return reading;
  }

  /** Article 3's passages with the terms each defines, kept per version of the corpus. */
  let definitions: { key: string; rows: { row: ChunkRow; index: ReturnType<typeof indexPassage> }[] } | null = null;
  async function definitionPassages() {
    const key = await deps.repo.documentsStamp(null);
    if (definitions && definitions.key === key) return definitions.rows;
    const rows = await deps.repo.articleChunks(3);
    definitions = { key, rows: rows.map((row) => ({ row, index: indexPassage(row.title, row.section, row.content) })) };
    return definitions.rows;
  }

  return {
    async obligationResults(workspaceId) {
      return (await readingOf(workspaceId)).results;
    },

    async tableRows(question, sources) {
      if (!asksForRows(question)) return [];
      const vendor = sources.filter((s) => s.workspaceId !== null).slice(0, 3);
      if (!vendor.length) return [];
      // A table already retrieved answers by itself.
      if (vendor.some((s) => s.content.split('\n').some((line) => isTableLine(line.trim())))) return [];
      const ws = vendor[0]!.workspaceId!;
      const all = await chunksOf(ws);
      const rows = vendor.flatMap((v) => {
        const at = all.findIndex((c) => c.id === v.id);
        return at < 0 ? [] : all.slice(at + 1, at + 3).filter((c) => c.document_id === v.documentId);
      });
      const out: Source[] = [];
      for (const r of rows) {
        if (out.length >= 2 || sources.some((s) => s.id === r.id) || out.some((s) => s.id === r.id)) continue;
        if (!r.content.split('\n').some((line) => isTableLine(line.trim()))) continue;
        const near = vendor.find((s) => s.documentId === r.document_id);
        out.push(sourceOf(r, sources.length + out.length + 1, near?.score ?? 0));
      }
      return out;
    },

    async listParts(sources) {
      const out: Source[] = [];
      for (const s of sources.slice(0, 3)) {
        const leads = leadInsOf(s.content);
        if (!leads.length) continue;
        const article = s.workspaceId === null ? /^DORA Article (\d+):/.exec(s.title) : null;
        const siblings =
          s.workspaceId !== null
            ? (await chunksOf(s.workspaceId)).filter((c) => c.document_id === s.documentId)
            : article
              ? await deps.repo.articleChunks(Number(article[1]))
              : [];
        for (const c of siblings) {
          if (out.length >= 2) return out;
          if (c.id === s.id || sources.some((x) => x.id === c.id) || out.some((x) => x.id === c.id)) continue;
          if (!leadInsOf(c.content).some((l) => leads.includes(l))) continue;
          out.push(sourceOf(c, sources.length + out.length + 1, s.score));
        }
      }
      return out;
    },

    async definition(question, sources) {
      if (!asksForDefinition(question)) return null;
      const reading = readQuestion(question);
      const fitOf = (index: ReturnType<typeof indexPassage>) => definitionFit(reading, index);
      const have = Math.max(0, ...sources.map((s) => fitOf(indexPassage(s.title, s.section, s.content))));
      let best: { row: ChunkRow; fit: number } | null = null;
      for (const { row, index } of await definitionPassages()) {
        const fit = fitOf(index);
        if (fit > (best?.fit ?? 0)) best = { row, fit };
      }
      if (!best || best.fit <= have || !definitionAnswers(question, reading, best.fit) || sources.some((s) => s.id === best.row.id)) return null;
      return sourceOf(best.row, sources.length + 1);
    },

    async judge(scope, question, sources) {
      const asked = obligationAsked(question);
      if (!asked) return null;
      if (!sources.some((s) => s.workspaceId !== null)) return null;
      const o = asked.obligation;
      const reading = await readingOf(scope.workspaceId);
      // A question about DORA alone ("does DORA require MFA?") is not a judgement of the vendor.
      const usesName = [...question.matchAll(PROPER_NAME)].some((m) => m.index! > 0 && !NOT_A_VENDOR.test(m[0]) && reading.names.has(m[0]));
      if (!usesName && !namesVendor(question, scope.workspaceName ?? '', sources)) return null;
      const result = reading.results.get(o.id);
      if (!result) return null;
      const doraText = result.doraText;
      // The passages that decided, as sources after the retrieved ones (a passage already retrieved keeps its number).
      const extra: Source[] = [];
      const all = () => [...sources, ...extra];
      const numberOf = (row: ChunkRow): number => {
        const found = all().find((s) => s.id === row.id);
        if (found) return found.sourceNumber;
        const n = sources.length + extra.length + 1;
        extra.push(sourceOf(row, n));
        return n;
      };
      if (!reading.articles.has(o.id)) reading.articles.set(o.id, await articleChunk(deps.repo, o, doraText));
      const article = reading.articles.get(o.id) ?? null;
      const doraSource = article ? numberOf(article) : null;
      const evidenceSources = result.evidence.map((e) => {
        const head = squash(e.quote.replace(/^…/, '')).slice(0, 50).toLowerCase();
        const row = reading.chunks.find((c) => c.document_id === e.documentId && squash(c.content).toLowerCase().includes(head));
        return row ? numberOf(row) : null;
      });
      const judgement: Judgement = {
        obligation: {
          id: o.id,
          ref: o.ref,
          title: o.title,
          requirement: o.requirement,
          scope: o.scope,
          elements: o.elements.map((e) => ({ id: e.id, label: e.label })),
        },
        doraText,
        doraSource,
        result,
        verdict: verdictOf(result),
        evidenceSources,
        vendor: scope.workspaceName || reading.vendorNames[0] || 'The vendor',
      };
      return { judgement, sources: extra };
    },
  };
}
