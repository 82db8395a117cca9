/**
 * Writes src/compliance/obligations.json, the DORA obligations as data, from an obligations
 * module written as code: the form src/compliance/obligations.ts had before the obligations
 * became data (a `VENDOR_OBLIGATIONS` array of objects holding RegExp values). Every regular
 * expression is written as its source (or `{ source, flags }` when its flags are not the
 * file's), every other field as it is; the result is checked against the file's schema
 * (src/compliance/obligationData.ts), read back, and compared with the module's obligations
 * field by field and pattern by pattern before it is written.
 *
 *   npx tsx scripts/obligations-to-data.ts [<git revision> | <path of a .ts file>]
 *
 * With a revision (default `main`), the module is that revision's src/compliance/obligations.ts
 * (`git show <rev>:src/compliance/obligations.ts`). A module that is already the data's loader
 * gives the same file back.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileObligations, ObligationsFileSchema } from '../src/compliance/obligationData.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'src/compliance/obligations.json');
/** The flags of the patterns written as a plain source (every pattern of the code form has them). */
const FLAGS = 'i';
const WIDTH = 160;
const ABOUT = [
  "The DORA obligations a vendor's documents can evidence (docs/assessments.md), read and checked by src/compliance/obligationData.ts.",
  'Each names the DORA obligation (its text is found in the reference data by `dora.match`), what evidence satisfies it (`elements`) and how to find it: `query` is ranked against passages lexically and with the embedder; an element is met by one passage (one sentence, or two adjacent sentences of a paragraph) matching one of its alternatives (`any`), where every pattern of the alternative must match and the first is the anchor (a negation just before it voids the match).',
  'A pattern is the source of a regular expression read with `flags`, or { "source", "flags" }.',
  "Order: Articles 28-30 first (the ICT third-party provisions), then the ICT risk articles a vendor's controls touch (9-12, 17, 24-25).",
].join(' ');

const arg = process.argv[2] ?? 'main';
const fromFile = existsSync(arg) && arg.endsWith('.ts');
const code = fromFile ? readFileSync(arg, 'utf8') : execFileSync('git', ['show', `${arg}:src/compliance/obligations.ts`], { cwd: root, encoding: 'utf8' });

// Imported from beside the loader, so that its relative imports resolve as they do in place.
const tmp = path.join(root, 'src/compliance', `obligations.from-code-${process.pid}.tmp.ts`);
writeFileSync(tmp, code);
let obligations: unknown;
try {
  obligations = (await import(pathToFileURL(tmp).href)).VENDOR_OBLIGATIONS;
} finally {
  rmSync(tmp, { force: true });
}
if (!Array.isArray(obligations)) throw new Error(`${arg}: no VENDOR_OBLIGATIONS array`);

const toData = (_key: string, v: unknown) => {
  if (!(v instanceof RegExp)) return v;
  // A slash needs no escape outside a literal: `ISO(/IEC)` rather than `ISO(\\/IEC)` (the source reads the same).
  const source = v.source.replace(/\\\//g, '/');
  return v.flags === FLAGS ? source : { source, flags: v.flags };
};
/** The members of each object in the order of the schema's properties, whatever the order in the module. */
type Schema = { properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
function ordered(v: unknown, schema: Schema): unknown {
  if (Array.isArray(v)) return schema.items ? v.map((x) => ordered(x, schema.items!)) : v;
  if (!v || typeof v !== 'object') return v;
  const s = schema.properties ? schema : schema.anyOf?.find((b) => b.properties);
  if (!s?.properties) return v;
  const known = Object.keys(s.properties).filter((k) => k in v);
  const rest = Object.keys(v).filter((k) => !(k in s.properties!));
  return Object.fromEntries(
    [...known, ...rest].map((k) => [k, s.properties![k] ? ordered((v as Record<string, unknown>)[k], s.properties![k]!) : (v as Record<string, unknown>)[k]]),
  );
}
const data = ordered(JSON.parse(JSON.stringify({ about: ABOUT, flags: FLAGS, obligations }, toData)), ObligationsFileSchema as Schema);

/** The file read back is the module's obligations: same fields, same pattern sources and flags. */
const canonical = (v: unknown): unknown => {
  if (v instanceof RegExp) return `/${v.source}/${v.flags}`;
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, canonical(x)]),
    );
  return v;
};
const back = compileObligations(data);
const want = obligations as { id: string }[];
if (back.length !== want.length) throw new Error(`read back ${back.length} obligations, not ${want.length}`);
back.forEach((o, i) => {
  if (JSON.stringify(canonical(o)) !== JSON.stringify(canonical(want[i]))) throw new Error(`${want[i]!.id}: the data read back differs from the module`);
});

/** One line of JSON with a space after each colon and comma. */
function inline(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`)
      .join(', ')} }`;
  return JSON.stringify(v);
}
/** JSON as the house formats code: a value on one line when it fits in WIDTH columns (after its key), else one member a line. */
function print(v: unknown, indent: string, lead = 0): string {
  const flat = inline(v);
  if (typeof v !== 'object' || v === null || indent.length + lead + flat.length + 1 <= WIDTH) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(v)) return `[\n${v.map((x) => inner + print(x, inner)).join(',\n')}\n${indent}]`;
  const members = Object.entries(v).map(([k, x]) => `${inner}${JSON.stringify(k)}: ${print(x, inner, JSON.stringify(k).length + 2)}`);
  return `{\n${members.join(',\n')}\n${indent}}`;
}
writeFileSync(OUT, `${print(data, '')}\n`);
console.log(`${path.relative(root, OUT)}: ${back.length} obligations, ${back.reduce((n, o) => n + o.elements.length, 0)} elements, from ${arg}`);
