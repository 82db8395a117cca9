import { readFileSync } from 'node:fs';
import { cellsAtFault, compileRule, holds, type CompiledRule, type Row } from './dpmxl.js';
import { COLUMNS, KEYS, NOT_APPLICABLE, REFERENCES, type TemplateId } from './taxonomy.js';

/**
 * The EBA's validation rules of the DORA register (ebaRules.json: the rules as DPM-XL
 * expressions, verbatim from their public transcription, with their source and version) and
 * the taxonomy's key and reference checks, run on built tables: the pre-flight runs them on
 * the tables it is about to file, the tests on the tables read back from a package.
 */

export interface RuleData {
  id: string;
  active: boolean;
  template: string;
  expression: string;
}
interface RuleFile {
  title: string;
  ebaVersion: string;
  source: { repository: string; path: string; commit: string; commitDate: string; url: string; note: string };
  rules: RuleData[];
}

const file = JSON.parse(readFileSync(new URL('./ebaRules.json', import.meta.url), 'utf8')) as RuleFile;

export interface EbaRule extends RuleData {
  compiled: CompiledRule;
}
/** Every rule of the file, compiled (a rule the evaluator cannot read fails at start, not at filing). */
export const EBA_RULES: EbaRule[] = file.rules.map((r) => ({ ...r, compiled: compileRule(r.expression) }));
/** Where the rules come from, for the API and the docs. */
export const RULES_SOURCE = {
  title: file.title,
  ebaVersion: file.ebaVersion,
  repository: file.source.repository,
  path: file.source.path,
  commit: file.source.commit,
  url: file.source.url,
  total: file.rules.length,
  active: file.rules.filter((r) => r.active).length,
};

export type Tables = Record<TemplateId, Row[]>;

/** One failed check on one row: an EBA rule, an empty or duplicate key, or a reference to no row. */
export interface Failure {
  check: 'rule' | 'key' | 'unique' | 'reference';
  /** The EBA rule id (check `rule`). */
  rule: string | null;
  /** A rule the EBA deactivated: reported, not blocking. */
  active: boolean;
  template: TemplateId;
  /** Index of the row in its table. */
  row: number;
  columns: string[];
  /** Reference: the table the value should name a row of. */
  target?: TemplateId;
}

/** Runs every rule (active and deactivated) on every row of its table. */
export function checkRules(tables: Tables): Failure[] {
  const out: Failure[] = [];
  for (const rule of EBA_RULES) {
    const t = rule.compiled.table as TemplateId;
    const rows = tables[t] ?? [];
    rows.forEach((row, i) => {
      if (!holds(rule.compiled, row, COLUMNS[t])) {
        out.push({ check: 'rule', rule: rule.id, active: rule.active, template: t, row: i, columns: cellsAtFault(rule.compiled, row, COLUMNS[t]) });
      }
    });
  }
  return out;
}

/** Every key column filled, every key unique, every reference naming a row of its target. */
export function checkKeysAndReferences(tables: Tables): Failure[] {
  const out: Failure[] = [];
  for (const [t, keys] of Object.entries(KEYS) as [TemplateId, string[]][]) {
    const seen = new Set<string>();
    (tables[t] ?? []).forEach((row, i) => {
      const empty = keys.filter((k) => !row[k]);
      if (empty.length) out.push({ check: 'key', rule: null, active: true, template: t, row: i, columns: empty });
      const key = JSON.stringify(keys.map((k) => row[k] ?? ''));
      if (!empty.length && seen.has(key)) out.push({ check: 'unique', rule: null, active: true, template: t, row: i, columns: keys });
      seen.add(key);
    });
  }
  for (const r of REFERENCES) {
    const targets = new Set((tables[r.target] ?? []).map((row) => JSON.stringify(r.targetColumns.map((c) => row[c] ?? ''))));
    (tables[r.template] ?? []).forEach((row, i) => {
      if (r.when && row[r.when.column] !== r.when.value) return;
      const values = r.columns.map((c) => row[c] ?? '');
      // An empty first column is not a reference (an optional one, or a key already reported empty);
      // "Not applicable" in a key (EBA Q&A 2024_7285) names no row either.
      if (!values[0] || values[0] === NOT_APPLICABLE) return;
      if (!targets.has(JSON.stringify(values)))
        out.push({ check: 'reference', rule: null, active: true, template: r.template, row: i, columns: r.columns, target: r.target });
    });
  }
  return out;
}
