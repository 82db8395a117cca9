/**
 * Gap verdict quality (docs/assessments.md, "Quality"): the assessment engine's verdict
 * per DORA obligation against a strict analyst's verdict written from the documents
 * (bench/eval/vendors/<slug>/gold.json `verdicts`; bench/eval/demo-verdicts.json for GitHub
 * and Basecamp). Each vendor's documents are parsed with the project's parsers and analysed
 * as an assessment of all of them is (all 30 obligations: no vendor profile), with the
 * default local embedder.
 *
 * Prints, per set (demo, tuning half, reporting half): exact agreement, agreement within one
 * step (covered-partial-missing), the confusion matrix, over-claims (the engine says more
 * than the analyst: covered for partial or missing, partial for missing) per obligation and
 * on key obligations, and with --verbose every disagreement with the analyst's reason.
 *
 *   npx tsx bench/assessment-quality.ts [--set demo|tune|report|all] [--rendered] [--verbose] [--show-report] [--json FILE]
 *
 * --verbose does not print the reporting half's disagreements (that half is for measuring);
 * --show-report does.
 */
import { vendorNamesOf } from '../src/domain/vendorNames.js';
import './lib/load.js';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { VENDOR_OBLIGATIONS } from '../src/compliance/obligations.js';
import { runGapAnalysis } from '../src/compliance/gapAnalysis.js';
import { loadConfig } from '../src/config.js';
import type { GapResult, GapStatus } from '../src/domain/gap.js';
import { parseFile } from '../src/ingest/parse.js';
import { createEmbedder } from '../src/rag/embedders/index.js';
import { defaultVendorDocsDir } from '../src/cli/demo.js';
import { devVendors, hasRenderings, vendorFiles, type VerdictGold } from '../test/helpers/devset.js';
import demoGold from './eval/demo-verdicts.json' with { type: 'json' };

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'all' },
    rendered: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    'show-report': { type: 'boolean', default: false },
    json: { type: 'string' },
    'min-relevance': { type: 'string' },
  },
});
const want = (s: string) => values.set === 'all' || values.set === s;
const ORDER: GapStatus[] = ['missing', 'partial', 'covered'];
const rank = (s: GapStatus) => ORDER.indexOf(s);
const KEY = new Set(VENDOR_OBLIGATIONS.filter((o) => o.key).map((o) => o.id));

interface Vendor {
  name: string;
  names: string[];
  set: string;
  files: { filename: string; content: Buffer }[];
  gold: Record<string, VerdictGold>;
}
const vendors: Vendor[] = [];
if (want('demo')) {
  const dir = defaultVendorDocsDir();
  for (const [name, folder] of [
    ['GitHub', 'github'],
    ['Basecamp', 'basecamp'],
  ] as const) {
    const files = readdirSync(path.join(dir, folder))
      .filter((f) => /\.(md|txt)$/.test(f))
      .sort()
      .map((f) => ({ filename: f, content: readFileSync(path.join(dir, folder, f)) }));
    vendors.push({
      name,
      names: [name, name === 'GitHub' ? 'GitHub, Inc.' : '37signals'],
      set: 'demo',
      files,
      gold: (demoGold as { vendors: Record<string, { verdicts: Record<string, VerdictGold> }> }).vendors[name]!.verdicts,
    });
  }
}
for (const half of ['tune', 'report'] as const) {
  if (!want(half)) continue;
  for (const v of devVendors(half)) {
    if (!v.gold?.verdicts) {
      console.log(`(${half}: no verdict gold yet for ${v.slug})`);
      continue;
    }
    // As the assessment service reads them (a workspace named "Brand (Product)" goes by both).
    const names = vendorNamesOf(v.name, v.legalName);
    vendors.push({ name: v.name, names, set: half, files: vendorFiles(v), gold: v.gold.verdicts });
    if (values.rendered && hasRenderings(v))
      vendors.push({ name: `${v.name} (PDF/DOCX)`, names, set: `${half} as PDF/DOCX`, files: vendorFiles(v, 'rendered'), gold: v.gold.verdicts });
  }
}

const config = loadConfig({ ...process.env, EMBEDDER: process.env.EMBEDDER ?? '' });
const embedder = createEmbedder(config.embeddings);
const limits = { maxTextChars: 5_000_000, maxDecompressedBytes: 100 * 1024 * 1024 };

interface Row {
  vendor: string;
  set: string;
  obligation: string;
  gold: GapStatus;
  got: GapStatus;
  reason: string;
  rationale: string;
  evidence: string[];
  elements: string[];
}
const rows: Row[] = [];
const t0 = performance.now();
for (const v of vendors) {
  const documents = [];
  for (const [i, f] of v.files.entries()) {
    const { doc } = await parseFile(f.content, f.filename, null, limits);
    documents.push({ id: `d${i}`, filename: f.filename, title: doc.title ?? null, blocks: doc.blocks });
  }
  const { results } = await runGapAnalysis({
    obligations: VENDOR_OBLIGATIONS,
    documents,
    embedder,
    vendorNames: v.names,
    ...(values['min-relevance'] ? { options: { minRelevance: Number(values['min-relevance']) } } : {}),
  });
  for (const r of results as GapResult[]) {
    const g = v.gold[r.obligationId];
    if (!g) {
      console.log(`${v.name}: no gold verdict for ${r.obligationId}`);
      continue;
    }
    rows.push({
      vendor: v.name,
      set: v.set,
      obligation: r.obligationId,
      gold: g.status,
      got: r.status,
      reason: g.reason,
      rationale: r.rationale,
      evidence: r.evidence.map((e) => `${e.role ?? 'evidence'} [${e.element}] ${e.filename}: ${e.quote.slice(0, 220)}`),
      elements: r.elements.map((e) => `${e.id}=${e.level ?? (e.satisfied ? 'met' : 'none')}${e.note ? ` (${e.note})` : ''}`),
    });
  }
}
console.log(`${vendors.length} vendors analysed in ${((performance.now() - t0) / 1000).toFixed(1)} s (embedder ${embedder.id})`);

const pct = (n: number, d: number) => (d ? (n / d).toFixed(2) : '-');
for (const set of [...new Set(rows.map((r) => r.set))]) {
  const rs = rows.filter((r) => r.set === set);
  const names = [...new Set(rs.map((r) => r.vendor))];
  const exact = rs.filter((r) => r.gold === r.got).length;
  const within = rs.filter((r) => Math.abs(rank(r.gold) - rank(r.got)) <= 1).length;
  const over = rs.filter((r) => rank(r.got) > rank(r.gold));
  const under = rs.filter((r) => rank(r.got) < rank(r.gold));
  console.log(`\n## ${set}: ${names.join(', ')} (${rs.length} verdicts)`);
  console.log(
    `exact agreement ${pct(exact, rs.length)} (${exact}/${rs.length}); within one step ${pct(within, rs.length)}; over-claims ${over.length} (${(over.length / names.length).toFixed(1)} per 30 obligations, ${over.filter((r) => KEY.has(r.obligation)).length} on key obligations); under-claims ${under.length}`,
  );
  console.log('confusion (rows: analyst, columns: engine)   covered  partial  missing');
  for (const g of ['covered', 'partial', 'missing'] as const) {
    console.log(
      `  ${g.padEnd(43)}${(['covered', 'partial', 'missing'] as const).map((c) => String(rs.filter((r) => r.gold === g && r.got === c).length).padStart(9)).join('')}`,
    );
  }
  const byOb = new Map<string, string[]>();
  for (const r of over) byOb.set(r.obligation, [...(byOb.get(r.obligation) ?? []), `${r.vendor} (${r.got} for ${r.gold})`]);
  if (byOb.size) {
    console.log('over-claims per obligation:');
    for (const [ob, list] of [...byOb.entries()].sort()) console.log(`  ${ob}${KEY.has(ob) ? ' (key)' : ''}: ${list.join('; ')}`);
  }
  if (values.verbose && set.startsWith('report') && !values['show-report']) {
    console.log('disagreements: not printed for the reporting half (it is for measuring); --show-report prints them');
  } else if (values.verbose) {
    console.log('disagreements:');
    for (const r of rs.filter((x) => x.gold !== x.got)) {
      console.log(`  ${r.vendor} ${r.obligation}: engine ${r.got}, analyst ${r.gold}: ${r.reason}`);
      console.log(`    engine: ${r.elements.join(', ')}`);
      for (const e of r.evidence.slice(0, 3)) console.log(`      ${e}`);
    }
  }
}
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
