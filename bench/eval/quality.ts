/**
 * Answer-quality evaluation over the demo data (docs/rag.md, "Answer quality"): the
 * questions of bench/eval/questions.jsonl are asked through `POST /rag` in the demo's
 * vendor workspaces (GitHub, Basecamp: the real documents of data/vendor-docs, loaded by
 * the same code as `npm run seed -- --demo`, plus the shared DORA corpus), and every
 * answer is scored against the question's gold DORA articles, gold vendor files and key
 * facts. Used by bench/answer-quality.ts (figures) and test/rag/answer-quality.test.ts
 * (floors under the figures).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { loadDemo, DEMO_USER, DEMO_VENDORS } from '../../src/cli/demo.js';
import type { Config } from '../../src/config.js';
import { queryRows, sql } from '../../src/db/client.js';
import { NO_ANSWER } from '../../src/rag/prompt.js';
import { figures, terms } from '../../src/rag/text.js';
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers/app.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const QUESTIONS_FILE = path.join(here, 'questions.jsonl');
const ROOT = path.resolve(here, '../..');

/** What a question expects: DORA articles, vendor files, both (a comparison), or nothing (no document answers it). */
export type Expect = 'dora' | 'vendor' | 'both' | 'none';

export interface EvalQuestion {
  id: string;
  /** Demo workspace the question is asked in. */
  workspace: 'github' | 'basecamp';
  question: string;
  expect: Expect;
  /** Gold DORA article numbers: any of them among the sources counts. */
  articles: number[];
  /** Gold vendor files (`github/<file>`, `basecamp/<file>`): any of them among the sources counts. */
  files: string[];
  /** Key facts, verbatim from the gold text. */
  facts: string[];
  /** The kind of question, for its own row of figures; unset for the original questions. */
  kind?: 'judgement' | 'multipart' | 'table' | 'nofigure' | 'summary' | 'definition';
  /** Judgement questions: the analyst's verdict on the vendor's documents. */
  verdict?: string;
}

export function loadQuestions(file = QUESTIONS_FILE): EvalQuestion[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const q = JSON.parse(l) as EvalQuestion;
      if (!q.id || !q.question || !['dora', 'vendor', 'both', 'none'].includes(q.expect)) throw new Error(`${file}:${i + 1}: bad question`);
      return q;
    });
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/<[^>]+>|&nbsp;/g, ' ')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ');

/** Every key fact must be found in the text of one of its question's gold documents. */
export function checkFacts(questions: EvalQuestion[]): string[] {
  const articles = new Map<number, string>(
    (JSON.parse(readFileSync(path.join(ROOT, 'data/dora/articles.json'), 'utf8')) as { number: number; text: string }[]).map((a) => [a.number, a.text]),
  );
  const problems: string[] = [];
  for (const q of questions) {
    const gold = norm(
      [...q.articles.map((a) => articles.get(a) ?? ''), ...q.files.map((f) => readFileSync(path.join(ROOT, 'data/vendor-docs', f), 'utf8'))].join(' '),
    );
    for (const f of q.facts) if (!gold.includes(norm(f))) problems.push(`${q.id}: fact not in the gold text: ${f}`);
    if (q.expect !== 'none' && q.facts.length === 0) problems.push(`${q.id}: no key fact`);
    if ((q.expect === 'dora' || q.expect === 'both') && q.articles.length === 0) problems.push(`${q.id}: no gold article`);
    if ((q.expect === 'vendor' || q.expect === 'both') && q.files.length === 0) problems.push(`${q.id}: no gold file`);
  }
  return problems;
}

/** A key fact is in the answer when its text is, or 70% of its content terms and all its figures are. */
export function factCovered(fact: string, answer: string): boolean {
  const a = norm(answer.replace(/\[Source\s+\d+\]/gi, ' '));
  if (a.includes(norm(fact))) return true;
  const ft = [...new Set(terms(fact))];
  const at = new Set(terms(a));
  const figs = figures(fact);
  const af = new Set(figures(a));
  const share = ft.length ? ft.filter((t) => at.has(t)).length / ft.length : 0;
  return share >= 0.7 && figs.every((f) => af.has(f));
}

interface RagSource {
  sourceNumber: number;
  title: string;
  documentId: string;
  workspaceId: string | null;
  score: number;
  section: string;
}
interface RagAnswer {
  answer: string;
  sources: RagSource[];
  citedSources: { sourceNumber: number }[];
  validation: { confidence: number; isGrounded: boolean; hasHallucinations: boolean; isRelevant: boolean; issues: string[] };
  totalTime: number;
}

export interface QuestionResult {
  q: EvalQuestion;
  status: number;
  answer: string;
  /** Per source: `Article n` or the vendor file. */
  sources: string[];
  cited: string[];
  doraHit: boolean;
  vendorHit: boolean;
  refused: boolean;
  citedGold: boolean;
  /** Comparison: a gold article and a gold file both cited. */
  citedBoth: boolean;
  factsCovered: number;
  invalidMarkers: boolean;
  hallucination: boolean;
  /** Validation's confidence and issues. */
  confidence: number;
  issues: string[];
  totalTime: number;
  wallMs: number;
}

export interface Demo {
  ctx: TestContext;
  app: FastifyInstance;
  kind: 'pglite' | 'postgres';
  headers: Record<'github' | 'basecamp', Record<string, string>>;
  /** documentId -> `github/<file>` for the demo's vendor documents. */
  files: Map<string, string>;
  setupMs: number;
  close(): Promise<void>;
}

/**
 * A fresh database (PGlite in memory, or a new PostgreSQL database beside DATABASE_URL)
 * with the DORA reference data and corpus and the demo loaded by `loadDemo`, as
 * `npm run seed -- --demo` does; the demo user logged in through the API.
 */
export async function startDemo(rag: Partial<Config['rag']> = {}): Promise<Demo> {
  const t0 = performance.now();
  const ctx = await buildTestApp({ rag: { ...testConfig().rag, generator: 'extractive', ...rag } });
  const { app } = ctx;
  await app.services.dataSources.indexCorpus();
  const demo = await loadDemo(app.services);
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: DEMO_USER.email, password: DEMO_USER.password } });
  if (login.statusCode !== 200) throw new Error(`demo login failed: ${login.statusCode} ${login.body}`);
  const token: string = login.json().data.accessToken;
  const headers = {} as Demo['headers'];
  const folderOf = new Map<string, string>();
  for (const v of demo.vendors) {
    const folder = DEMO_VENDORS.find((d) => d.workspaceName === v.workspaceName)!.folder as 'github' | 'basecamp';
    if (v.status !== 'ready') throw new Error(`demo data source of ${v.workspaceName} is ${v.status}`);
    headers[folder] = { authorization: `Bearer ${token}`, 'x-workspace-id': v.workspaceId };
    folderOf.set(v.dataSourceId, folder);
  }
  const rows = await queryRows<{ id: string; filename: string; data_source_id: string }>(
    ctx.database.db,
    sql`SELECT d.id, f.filename, d.data_source_id FROM documents d JOIN data_source_files f ON f.id = d.file_id WHERE d.deleted_at IS NULL`,
  );
  const files = new Map(rows.filter((r) => folderOf.has(r.data_source_id)).map((r) => [r.id, `${folderOf.get(r.data_source_id)}/${r.filename}`]));
  return { ctx, app, kind: ctx.database.kind, headers, files, setupMs: Math.round(performance.now() - t0), close: ctx.close };
}

/** The label of a source for scoring: `Article 28` for the DORA corpus, else the vendor file. */
function labelOf(demo: Demo, s: RagSource): string {
  const art = /^DORA Article (\d+):/.exec(s.title);
  if (s.workspaceId === null && art) return `Article ${art[1]}`;
  return demo.files.get(s.documentId) ?? `? ${s.title}`;
}

export async function askOne(demo: Demo, q: EvalQuestion): Promise<QuestionResult> {
  const t = performance.now();
  const res = await demo.app.inject({ method: 'POST', url: '/api/v1/rag', headers: demo.headers[q.workspace], payload: { question: q.question } });
  const wallMs = performance.now() - t;
  const data = (res.statusCode === 200 ? res.json().data : null) as RagAnswer | null;
  if (!data) {
    return {
      q,
      status: res.statusCode,
      answer: res.body,
      sources: [],
      cited: [],
      doraHit: false,
      vendorHit: false,
      refused: false,
      citedGold: false,
      citedBoth: false,
      factsCovered: 0,
      invalidMarkers: false,
      hallucination: false,
      confidence: 0,
      issues: [],
      totalTime: 0,
      wallMs,
    };
  }
  const labels = data.sources.map((s) => labelOf(demo, s));
  const gold = new Set([...q.articles.map((a) => `Article ${a}`), ...q.files]);
  const cited = data.citedSources.map((c) => labels[c.sourceNumber - 1]!);
  const isArticle = (l: string) => l.startsWith('Article ');
  return {
    q,
    status: res.statusCode,
    answer: data.answer,
    sources: labels,
    cited,
    doraHit: q.articles.some((a) => labels.includes(`Article ${a}`)),
    vendorHit: q.files.some((f) => labels.includes(f)),
    refused: data.answer.trim().startsWith(NO_ANSWER),
    citedGold: cited.some((c) => gold.has(c)),
    citedBoth: cited.some((c) => gold.has(c) && isArticle(c)) && cited.some((c) => gold.has(c) && !isArticle(c)),
    factsCovered: q.facts.filter((f) => factCovered(f, data.answer)).length,
    invalidMarkers: data.validation.issues.some((i) => /does not refer to a retrieved source/.test(i)),
    hallucination: data.validation.hasHallucinations,
    confidence: data.validation.confidence,
    issues: data.validation.issues,
    totalTime: data.totalTime,
    wallMs,
  };
}

export async function runQuestions(demo: Demo, questions: EvalQuestion[], onResult?: (r: QuestionResult) => void): Promise<QuestionResult[]> {
  const out: QuestionResult[] = [];
  for (const q of questions) {
    const r = await askOne(demo, q);
    onResult?.(r);
    out.push(r);
  }
  return out;
}

export interface Figures {
  n: number;
  /** Right DORA article among the sources (questions with gold articles). */
  doraRecall: number | null;
  /** Right vendor document among the sources (questions with gold files). */
  vendorRecall: number | null;
  /** Comparisons: both a right article and a right document among the sources. */
  bothRecall: number | null;
  /** Answerable questions answered "The retrieved sources do not answer this question". */
  refused: number | null;
  /** Answerable questions whose answer cites a right source (a refusal cites none). */
  citedGold: number | null;
  /** Comparisons citing a right article and a right document. */
  citedBoth: number | null;
  /** Share of key facts found in the answers of answerable questions. */
  facts: number | null;
  /** Questions no document answers: refused. */
  noneRefused: number | null;
  noneCount: number;
  noneRefusedCount: number;
  /** Answers flagged by validation as holding an invented claim, figure or marker. */
  hallucinations: number;
  invalidMarkers: number;
  errors: number;
  p50: number;
  p95: number;
}

const share = (xs: boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : null);
const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

export function figuresOf(results: QuestionResult[]): Figures {
  const answerable = results.filter((r) => r.q.expect !== 'none');
  const none = results.filter((r) => r.q.expect === 'none');
  const both = results.filter((r) => r.q.expect === 'both');
  const factTotal = answerable.reduce((a, r) => a + r.q.facts.length, 0);
  return {
    n: results.length,
    doraRecall: share(results.filter((r) => r.q.articles.length).map((r) => r.doraHit)),
    vendorRecall: share(results.filter((r) => r.q.files.length).map((r) => r.vendorHit)),
    bothRecall: share(both.map((r) => r.doraHit && r.vendorHit)),
    refused: share(answerable.map((r) => r.refused)),
    citedGold: share(answerable.map((r) => r.citedGold)),
    citedBoth: share(both.map((r) => r.citedBoth)),
    facts: factTotal ? answerable.reduce((a, r) => a + r.factsCovered, 0) / factTotal : null,
    noneRefused: share(none.map((r) => r.refused)),
    noneCount: none.length,
    noneRefusedCount: none.filter((r) => r.refused).length,
    hallucinations: results.filter((r) => r.hallucination).length,
    invalidMarkers: results.filter((r) => r.invalidMarkers).length,
    errors: results.filter((r) => r.status !== 200).length,
    p50: pct(
      results.map((r) => r.totalTime),
      50,
    ),
    p95: pct(
      results.map((r) => r.totalTime),
      95,
    ),
  };
}

const f2 = (x: number | null) => (x === null ? '—' : x.toFixed(2));

export const KINDS = ['judgement', 'multipart', 'table', 'nofigure', 'summary', 'definition'] as const;

/** The figure table (Markdown), one row per kind of question and one for all. */
export function figureTable(results: QuestionResult[]): string {
  const rows: [string, QuestionResult[]][] = [
    ['DORA', results.filter((r) => r.q.expect === 'dora')],
    ['vendor', results.filter((r) => r.q.expect === 'vendor')],
    ['both (comparisons)', results.filter((r) => r.q.expect === 'both')],
    ['no answer in the documents', results.filter((r) => r.q.expect === 'none')],
    ...KINDS.map((k): [string, QuestionResult[]] => [`kind: ${k}`, results.filter((r) => r.q.kind === k)]),
    ['original questions (no kind)', results.filter((r) => !r.q.kind)],
    ['all', results],
  ];
  const head =
    '| questions | n | DORA article@5 | vendor doc@5 | both@5 | answerable refused | cites a right source | both sides cited | key facts | unanswerable refused | hallucination flags | invalid markers | p50 ms | p95 ms |';
  const sep = `|${'---|'.repeat(14)}`;
  const lines = rows
    .filter(([, rs]) => rs.length)
    .map(([name, rs]) => {
      const f = figuresOf(rs);
      return `| ${name} | ${f.n} | ${f2(f.doraRecall)} | ${f2(f.vendorRecall)} | ${f2(f.bothRecall)} | ${f2(f.refused)} | ${f2(f.citedGold)} | ${f2(f.citedBoth)} | ${f2(f.facts)} | ${f.noneCount ? `${f.noneRefusedCount}/${f.noneCount}` : '—'} | ${f.hallucinations} | ${f.invalidMarkers} | ${f.p50} | ${f.p95} |`;
    });
  return [head, sep, ...lines].join('\n');
}

/** One line with the headline figures, for logs and for comparing runs. */
export function summaryLine(results: QuestionResult[], label: string): string {
  const f = figuresOf(results);
  return (
    `answer-quality ${label}: n=${f.n} dora@5=${f2(f.doraRecall)} vendor@5=${f2(f.vendorRecall)} both@5=${f2(f.bothRecall)} ` +
    `refused=${f2(f.refused)} cited=${f2(f.citedGold)} facts=${f2(f.facts)} none-refused=${f.noneRefusedCount}/${f.noneCount} ` +
    `halluc=${f.hallucinations} invalid=${f.invalidMarkers} errors=${f.errors} p50=${f.p50}ms p95=${f.p95}ms`
  );
}
