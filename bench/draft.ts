/**
 * Register drafting quality (docs/register-drafting.md, "Measure"). Drafts every vendor
 * through the service (retrieval + offline rules, or the model path) and judges each field
 * against the gold written from the documents:
 *
 * - demo: GitHub and Basecamp (data/vendor-docs, loaded as `npm run seed -- --demo` does),
 *   gold bench/eval/draft-gold.json;
 * - tune / report: the development set of real vendors (bench/eval/vendors/, gold.json per
 *   vendor), in its two halves: rules are written against the tuning half, figures are
 *   reported on the reporting half;
 * - with --rendered, also the vendors that have PDF/DOCX renderings, drafted from those.
 *
 * Prints precision and recall per field for each set, the fields the documents leave open
 * and how many the draft explained, the quotes not verbatim in their stored passage (must
 * be 0), the mistakes, and the time taken.
 *
 *   npx tsx bench/draft.ts [--set demo|tune|report|all] [--rendered] [--model] [--quiet] [--show-report]
 *
 * The mistakes of the reporting half are counted, not printed: that half is for measuring, and
 * a rule written from its misses would no longer be measured on it. --show-report prints them.
 *   DATABASE_URL=postgres://... npx tsx bench/draft.ts     a fresh PostgreSQL database
 *
 * --model: the model path against the fake Messages API (test/helpers/fakeAnthropic.ts)
 * scripted to answer with the gold value and quote: a plumbing check (tool per field,
 * passages in, verbatim-quote filter, grouping), not a measure of any model.
 */
import './lib/load.js';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadDemo, loadVendorWorkspace, type LoadedVendor } from '../src/cli/demo.js';
import { queryRows, sql } from '../src/db/client.js';
import { freshDatabase, testConfig } from '../test/helpers/app.js';
import { devVendors, hasRenderings, vendorFiles, type DevVendor } from '../test/helpers/devset.js';
import { judgeDraft, type DraftGold } from '../test/helpers/draftGold.js';
import { startFakeAnthropic } from '../test/helpers/fakeAnthropic.js';
import demoGold from './eval/draft-gold.json' with { type: 'json' };

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'all' },
    rendered: { type: 'boolean', default: false },
    model: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    'show-report': { type: 'boolean', default: false },
    vendor: { type: 'string' },
  },
});
// --vendor slug[,slug]: only these vendors of the set (a reporting vendor only with --show-report), with every field of their draft printed.
const only = values.vendor ? new Set(values.vendor.split(',')) : null;
const want = (s: string) => values.set === 'all' || values.set === s;

// The gold of every vendor drafted, keyed by workspace name.
const sets: { name: string; gold: DraftGold; vendors: string[] }[] = [];
const allGold: DraftGold = { vendors: {} };
if (want('demo')) {
  sets.push({ name: 'demo (GitHub, Basecamp)', gold: demoGold as DraftGold, vendors: Object.keys(demoGold.vendors) });
  Object.assign(allGold.vendors, (demoGold as DraftGold).vendors);
}
const dev: { v: DevVendor; workspace: string; form: 'markdown' | 'rendered' }[] = [];
for (const half of ['tune', 'report'] as const) {
  if (!want(half)) continue;
  const vendors = devVendors(half).filter((v) => v.gold?.draft && (!only || (only.has(v.slug) && (half === 'tune' || values['show-report']))));
  const missing = devVendors(half).filter((v) => !v.gold?.draft);
  if (missing.length) console.log(`(${half}: no gold yet for ${missing.map((v) => v.slug).join(', ')})`);
  const gold: DraftGold = { vendors: {} };
  for (const v of vendors) {
    dev.push({ v, workspace: v.name, form: 'markdown' });
    gold.vendors[v.name] = v.gold!.draft!;
  }
  sets.push({ name: `${half} half (${vendors.length} vendors)`, gold, vendors: Object.keys(gold.vendors) });
  Object.assign(allGold.vendors, gold.vendors);
  if (values.rendered) {
    const rendered: DraftGold = { vendors: {} };
    for (const v of vendors.filter(hasRenderings)) {
      dev.push({ v, workspace: `${v.name} (PDF/DOCX)`, form: 'rendered' });
      rendered.vendors[`${v.name} (PDF/DOCX)`] = v.gold!.draft!;
    }
    if (Object.keys(rendered.vendors).length) {
      sets.push({ name: `${half} half as PDF/DOCX`, gold: rendered, vendors: Object.keys(rendered.vendors) });
      Object.assign(allGold.vendors, rendered.vendors);
    }
  }
}

const fake = values.model ? await startFakeAnthropic() : null;
const base = testConfig({ workers: 1 });
const config = fake
  ? {
      ...base,
      rag: { ...base.rag, generator: 'anthropic' as const, anthropic: { ...base.rag.anthropic, apiKey: fake.apiKey, baseUrl: fake.url, maxRetries: 0 } },
    }
  : base;
if (fake) {
  fake.reply((req) => {
    const tool = req.body.tools?.[0]?.name ?? '';
    const field = tool.replace(/^record_/, '');
    const system = req.body.system ?? '';
    const vendor = Object.keys(allGold.vendors)
      .sort((a, b) => b.length - a.length)
      .find((v) => system.includes(v));
    const wanted = vendor ? allGold.vendors[vendor]!.fields[field] : undefined;
    if (!wanted) return { toolUse: { name: tool, input: { values: [] } } };
    const user = String(req.body.messages[0]!.content);
    const passages = [...user.matchAll(/<passage number="(\d+)"[^>]*>\n([\s\S]*?)\n<\/passage>/g)].map((m) => ({ n: Number(m[1]), content: m[2]! }));
    const hit = passages.find((p) => p.content.includes(wanted.quote));
    const value = field === 'subcontractors' ? (wanted.value as string[]).map((name) => ({ name })) : 'value' in wanted ? wanted.value : wanted.quote;
    return { toolUse: { name: tool, input: { values: [{ value, passage: hit?.n ?? 1, quote: wanted.quote }] } } };
  });
}

const { database, drop } = await freshDatabase();
const app = await buildApp({ config, database });
await app.ready();
let t0 = performance.now();
const loaded: LoadedVendor[] = [];
const demo = await loadDemo(app.services, {});
if (want('demo')) loaded.push(...demo.vendors);
const orgId = (await app.services.organizations.membershipOf(demo.user.id))!.orgId;
for (const d of dev) {
  loaded.push(
    await loadVendorWorkspace(
      app.services,
      { userId: demo.user.id, orgId },
      {
        workspaceName: d.workspace,
        sourceName: `${d.v.name} published documents`,
        description: `bench/eval/vendors/${d.v.slug}`,
        files: () => vendorFiles(d.v, d.form),
      },
    ),
  );
}
console.log(
  `${loaded.length} vendors ingested in ${(performance.now() - t0).toFixed(0)} ms (${loaded.reduce((n, v) => n + v.documents, 0)} documents, ${loaded.reduce((n, v) => n + v.chunks, 0)} chunks)`,
);

type Draft = Awaited<ReturnType<typeof app.services.profileDrafts.get>>;
const drafts: Record<string, Draft> = {};
const times: number[] = [];
for (const v of loaded) {
  t0 = performance.now();
  const started = await app.services.profileDrafts.start(v.scope);
  for (;;) {
    const d = await app.services.profileDrafts.get(v.scope, started.id);
    if (d.status === 'completed' || d.status === 'failed') {
      drafts[v.workspaceName] = d;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  times.push(performance.now() - t0);
  if (drafts[v.workspaceName]!.status === 'failed') console.log(`${v.workspaceName}: draft FAILED: ${drafts[v.workspaceName]!.error}`);
}
console.log(
  `drafts: ${loaded.length} in ${(times.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s (median ${[...times].sort((a, b) => a - b)[times.length >> 1]?.toFixed(0)} ms), extractor ${Object.values(drafts)[0]?.extractor}`,
);

const chunkContent = async (chunkId: string) => {
  const [row] = await queryRows<{ content: string }>(database.db, sql`select content from chunks where id = ${chunkId}`);
  return row?.content ?? null;
};
const fmt = (x: number | null, w: number) => (x === null ? '-' : x.toFixed(2)).padStart(w);
for (const s of sets) {
  const report = await judgeDraft(s.gold, Object.fromEntries(s.vendors.map((v) => [v, drafts[v]!])), chunkContent);
  console.log(`\n## ${s.name}: ${s.vendors.join(', ')}`);
  console.log('field                      gold  proposed  correct  precision  recall');
  for (const f of report.fields) {
    console.log(
      `${f.field.padEnd(26)} ${String(f.gold).padStart(4)}  ${String(f.proposed).padStart(8)}  ${String(f.correct).padStart(7)}  ${fmt(f.precision, 9)}  ${fmt(f.recall, 6)}`,
    );
  }
  console.log(
    `${'overall'.padEnd(26)} ${String(report.gold).padStart(4)}  ${String(report.proposed).padStart(8)}  ${String(report.correct).padStart(7)}  ${fmt(report.precision, 9)}  ${fmt(report.recall, 6)}`,
  );
  console.log(`left open by the documents: ${report.open}, explained by the draft: ${report.explained}`);
  console.log(`quotes checked against the stored passages: ${report.quotes}, not verbatim: ${report.notVerbatim}`);
  const reporting = /^report half/.test(s.name);
  if (reporting && !values['show-report'] && report.mistakes.length) {
    console.log(`  (${report.mistakes.length} mistakes of the reporting half not printed: --show-report prints them)`);
  } else if (!values.quiet) for (const m of report.mistakes) console.log(`  ${m}`);
}
if (only)
  for (const d of dev) {
    console.log(`\n## ${d.workspace}: every field`);
    for (const p of drafts[d.workspace]!.fields ?? [])
      console.log(`  ${p.field}: ${p.status} ${p.status === 'proposed' ? JSON.stringify(p.value).slice(0, 200) : (p.reason ?? '')}`);
  }
const dropped = Object.values(drafts).reduce((a, d) => a + (d.summary?.dropped ?? 0), 0);
if (fake) console.log(`\nmodel path (fake server): ${fake.requests.length} requests, ${dropped} value(s) dropped for a quote not verbatim in its passage`);
await app.close();
await drop();
await fake?.close();
