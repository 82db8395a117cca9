/**
 * Register drafting quality (docs/register-drafting.md): the demo vendors' documents
 * (GitHub, Basecamp; data/vendor-docs) are ingested as `npm run seed -- --demo` does, a
 * draft runs for each through the service (retrieval + offline rules, or the model path
 * when ANTHROPIC_API_KEY is set), and every field is judged against
 * bench/eval/draft-gold.json. Prints precision and recall per field and overall, the
 * quotes that are not verbatim in their stored passage (must be 0), and the time taken.
 *
 *   npx tsx bench/draft.ts                          embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/draft.ts   a fresh PostgreSQL database
 *   npx tsx bench/draft.ts --model                  the model path against the fake Messages
 *       API (test/helpers/fakeAnthropic.ts) scripted to answer with the gold value and quote:
 *       a plumbing check (tool per field, passages in, verbatim-quote filter, grouping), not
 *       a measure of any model. A gold quote not verbatim in the stored passage is dropped.
 */
import './lib/load.js';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadDemo } from '../src/cli/demo.js';
import { freshDatabase, testConfig } from '../test/helpers/app.js';
import { judgeDraft, type DraftGold } from '../test/helpers/draftGold.js';
import gold from './eval/draft-gold.json' with { type: 'json' };
import { startFakeAnthropic } from '../test/helpers/fakeAnthropic.js';

const MODEL = process.argv.includes('--model');
const fake = MODEL ? await startFakeAnthropic() : null;
const base = testConfig({ workers: 1 });
const config = fake
  ? {
      ...base,
      rag: { ...base.rag, generator: 'anthropic' as const, anthropic: { ...base.rag.anthropic, apiKey: fake.apiKey, baseUrl: fake.url, maxRetries: 0 } },
    }
  : base;
if (fake) {
  const g = gold as DraftGold;
  fake.reply((req) => {
    const tool = req.body.tools?.[0]?.name ?? '';
    const field = tool.replace(/^record_/, '');
    const vendor = Object.keys(g.vendors).find((v) => (req.body.system ?? '').includes(v));
    const want = vendor ? g.vendors[vendor]!.fields[field] : undefined;
    if (!want) return { toolUse: { name: tool, input: { values: [] } } };
    const user = String(req.body.messages[0]!.content);
    const passages = [...user.matchAll(/<passage number="(\d+)"[^>]*>\n([\s\S]*?)\n<\/passage>/g)].map((m) => ({ n: Number(m[1]), content: m[2]! }));
    const hit = passages.find((p) => p.content.includes(want.quote));
    const value = field === 'subcontractors' ? (want.value as string[]).map((name) => ({ name })) : 'value' in want ? want.value : want.quote;
    return { toolUse: { name: tool, input: { values: [{ value, passage: hit?.n ?? 1, quote: want.quote }] } } };
  });
}
const { database, drop } = await freshDatabase();
const app = await buildApp({ config, database });
await app.ready();
let t0 = performance.now();
const demo = await loadDemo(app.services, {});
console.log(
  `demo documents ingested in ${(performance.now() - t0).toFixed(0)} ms: ${demo.vendors.map((v) => `${v.workspaceName} ${v.documents} documents, ${v.chunks} chunks`).join('; ')}`,
);

const drafts: Record<string, Awaited<ReturnType<typeof app.services.profileDrafts.get>>> = {};
for (const v of demo.vendors) {
  t0 = performance.now();
  const scope = v.scope;
  const started = await app.services.profileDrafts.start(scope);
  for (;;) {
    const d = await app.services.profileDrafts.get(scope, started.id);
    if (d.status === 'completed' || d.status === 'failed') {
      drafts[v.workspaceName] = d;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(
    `${v.workspaceName}: draft ${drafts[v.workspaceName]!.status} in ${(performance.now() - t0).toFixed(0)} ms (${drafts[v.workspaceName]!.extractor}), ${drafts[v.workspaceName]!.summary?.passages ?? 0} passages read`,
  );
}

const report = await judgeDraft(gold as DraftGold, drafts, async (chunkId) => {
  const { queryRows } = await import('../src/db/client.js');
  const { sql } = await import('drizzle-orm');
  const [row] = await queryRows<{ content: string }>(database.db, sql`select content from chunks where id = ${chunkId}`);
  return row?.content ?? null;
});
console.log('\nfield                      gold  proposed  correct  precision  recall');
for (const f of report.fields) {
  console.log(
    `${f.field.padEnd(26)} ${String(f.gold).padStart(4)}  ${String(f.proposed).padStart(8)}  ${String(f.correct).padStart(7)}  ${f.precision === null ? '     -' : f.precision.toFixed(2).padStart(9)}  ${f.recall === null ? '    -' : f.recall.toFixed(2).padStart(6)}`,
  );
}
console.log(
  `${'overall'.padEnd(26)} ${String(report.gold).padStart(4)}  ${String(report.proposed).padStart(8)}  ${String(report.correct).padStart(7)}  ${report.precision.toFixed(2).padStart(9)}  ${report.recall.toFixed(2).padStart(6)}`,
);
console.log(`quotes checked against the stored passages: ${report.quotes}, not verbatim: ${report.notVerbatim}`);
for (const m of report.mistakes) console.log(`  ${m}`);
const dropped = Object.values(drafts).reduce((a, d) => a + (d.summary?.dropped ?? 0), 0);
if (fake) console.log(`model path (fake server): ${fake.requests.length} requests, ${dropped} value(s) dropped for a quote not verbatim in its passage`);
await app.close();
await drop();
await fake?.close();
