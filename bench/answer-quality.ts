/**
 * Answer quality on the demo data (docs/rag.md, "Answer quality"; docs/retrieval.md).
 *
 *   node --import=tsx bench/answer-quality.ts [--only dora|vendor|both|none] [--ids REGEX] [--verbose] [--json FILE]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import=tsx bench/answer-quality.ts
 *
 * Loads the demo into a fresh database (PGlite in memory, or a new PostgreSQL database
 * beside DATABASE_URL, dropped at the end), asks every question of
 * bench/eval/questions.jsonl through POST /rag in its workspace with the offline
 * defaults (local embedder, extractive generator; RAG_GENERATOR / ANTHROPIC_* from the
 * environment choose another), and prints the figure table, per kind of question, then
 * one summary line. Take figures under `heavy -x` (quiet machine); the load average is
 * printed with them.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { checkFacts, figureTable, loadQuestions, runQuestions, startDemo, summaryLine, type QuestionResult } from './eval/quality.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    ids: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});

let questions = loadQuestions();
const problems = checkFacts(questions);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
if (values.only) questions = questions.filter((q) => q.expect === values.only);
if (values.ids) questions = questions.filter((q) => new RegExp(values.ids!).test(q.id));

const env = loadConfig(process.env).rag;
const demo = await startDemo(process.env.RAG_GENERATOR || process.env.ANTHROPIC_API_KEY ? { generator: env.generator, anthropic: env.anthropic } : {});
const label = `${demo.kind}, ${demo.app.services.rag.generatorId}`;
console.log(`# answer quality — ${label}; demo loaded in ${demo.setupMs} ms; ${questions.length} questions`);
let results: QuestionResult[] = [];
try {
  // One warm-up question (first-query compilation and caches), not counted.
  await runQuestions(demo, questions.slice(0, 1));
  results = await runQuestions(demo, questions, (r) => {
    if (!values.verbose) return;
    const mark = r.q.expect === 'none' ? (r.refused ? 'ok ' : 'BAD') : r.refused ? 'REF' : r.citedGold ? 'ok ' : 'MIS';
    console.log(`\n[${mark}] ${r.q.id} (${r.q.workspace}) ${r.q.question}`);
    console.log(`  gold: ${[...r.q.articles.map((a) => `Article ${a}`), ...r.q.files].join(', ') || '—'}`);
    console.log(`  sources: ${r.sources.join(' | ')}`);
    console.log(`  answer: ${r.answer.replace(/\n/g, '\n          ')}`);
    console.log(`  facts ${r.factsCovered}/${r.q.facts.length}, ${r.totalTime} ms`);
  });
} finally {
  await demo.close();
}
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
console.log(`\n${figureTable(results)}\n`);
console.log(`${summaryLine(results, label)} load=${load}`);
if (values.json)
  writeFileSync(
    values.json,
    JSON.stringify(
      results.map((r) => ({ ...r, q: r.q.id })),
      null,
      1,
    ),
  );
