import { parse } from 'csv-parse/sync';
import { checkKeysAndReferences, checkRules, type Failure, type Tables } from '../../src/compliance/register/ebaRules.js';
import { COLUMNS, TEMPLATES, type TemplateId } from '../../src/compliance/register/taxonomy.js';
import { unzip } from './assessments.js';

/** An xBRL-CSV report package read back: its folder name, files, and every table as rows of column code -> cell. */
export async function readPackage(buf: Buffer) {
  const files = await unzip(buf);
  const root = [...files.keys()][0]!.split('/')[0]!;
  const text = (f: string) => files.get(`${root}/${f}`)?.toString('utf8');
  const tables = {} as Tables;
  for (const t of TEMPLATES) {
    const csv = text(`reports/${t.toLowerCase()}.csv`);
    if (csv === undefined) throw new Error(`reports/${t.toLowerCase()}.csv missing from the package`);
    const header = csv.split('\r\n')[0]!.split(',');
    if (header.join(',') !== COLUMNS[t].join(',')) throw new Error(`${t}: header ${header.join(',')} is not the taxonomy's ${COLUMNS[t].join(',')}`);
    tables[t] = parse(csv, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  }
  const table = (name: string) => parse(text(`reports/${name}.csv`)!, { columns: true }) as Record<string, string>[];
  return {
    root,
    files,
    text,
    tables,
    parameters: Object.fromEntries(table('parameters').map((r) => [r.name, r.value])),
    indicators: table('FilingIndicators'),
  };
}

/** The EBA's active rules and the taxonomy's key and reference checks on read-back tables: the failures, in words for a test message. */
export function failuresOf(tables: Tables): { failures: Failure[]; text: string } {
  const failures = [...checkKeysAndReferences(tables), ...checkRules(tables)].filter((f) => f.active);
  return {
    failures,
    text: failures.map((f) => `${f.check} ${f.rule ?? ''} ${f.template} row ${f.row + 1} ${f.columns.join(',')}`).join('; '),
  };
}

export type { TemplateId, Tables };
