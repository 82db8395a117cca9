/**
 * The tables of the EBA DORA 4.0 taxonomy (module DORA010100) this service files: their
 * column codes, the key columns of each table (which must be filled and unique), and the
 * references between tables (a key of one table naming a row of another; composite where the
 * target's key is). docs/register-of-information.md says where each comes from.
 */

export const TEMPLATES = [
  'B_01.01',
  'B_01.02',
  'B_01.03',
  'B_02.01',
  'B_02.02',
  'B_02.03',
  'B_03.01',
  'B_03.02',
  'B_03.03',
  'B_04.01',
  'B_05.01',
  'B_05.02',
  'B_06.01',
  'B_07.01',
  'B_99.01',
] as const;
export type TemplateId = (typeof TEMPLATES)[number];

const cols = (n: number) => Array.from({ length: n }, (_, i) => `c${String((i + 1) * 10).padStart(4, '0')}`);
/** Column codes of each template (B_03.03's link column is c0031 in the taxonomy). */
export const COLUMNS: Record<TemplateId, string[]> = {
  'B_01.01': cols(6),
  'B_01.02': cols(11),
  'B_01.03': cols(4),
  'B_02.01': cols(5),
  'B_02.02': cols(18),
  'B_02.03': cols(3),
  'B_03.01': cols(3),
  'B_03.02': cols(3),
  'B_03.03': ['c0010', 'c0020', 'c0031'],
  'B_04.01': cols(4),
  'B_05.01': cols(12),
  'B_05.02': cols(7),
  'B_06.01': cols(10),
  'B_07.01': cols(12),
  'B_99.01': cols(19),
};

/** Key columns of each table: filled in every row (never empty: the EBA Q&A 2024_7285) and unique together. */
export const KEYS: Partial<Record<TemplateId, string[]>> = {
  'B_01.01': ['c0010'],
  'B_01.02': ['c0010'],
  'B_01.03': ['c0010', 'c0020'],
  'B_02.01': ['c0010'],
  'B_02.02': ['c0010', 'c0020', 'c0030', 'c0050', 'c0060', 'c0130', 'c0150', 'c0160'],
  'B_02.03': ['c0010', 'c0020'],
  'B_03.01': ['c0010', 'c0020'],
  'B_03.02': ['c0010', 'c0020'],
  'B_03.03': ['c0010', 'c0020'],
  'B_04.01': ['c0010', 'c0020', 'c0040'],
  'B_05.01': ['c0010', 'c0020'],
  'B_05.02': ['c0010', 'c0020', 'c0030', 'c0050', 'c0060'],
  'B_06.01': ['c0010', 'c0040'],
  'B_07.01': ['c0010', 'c0020', 'c0040'],
};

/** A reference: the values of `columns` in `template` must be the values of `targetColumns` in some row of `target`. */
export interface Reference {
  template: TemplateId;
  columns: string[];
  target: TemplateId;
  targetColumns: string[];
  /** Only rows where this column holds this value (B_04.01: the branch of a row that is a branch). */
  when?: { column: string; value: string };
}

const ref = (template: TemplateId, columns: string[], target: TemplateId, targetColumns: string[], when?: Reference['when']): Reference => ({
  template,
  columns,
  target,
  targetColumns,
  ...(when ? { when } : {}),
});
/** Codes identifying a provider are a pair: the code and its type (the key of B_05.01). */
const PROVIDER = ['c0010', 'c0020'];

export const REFERENCES: Reference[] = [
  ref('B_01.02', ['c0060'], 'B_01.02', ['c0010']),
  ref('B_01.03', ['c0020'], 'B_01.02', ['c0010']),
  ref('B_02.01', ['c0030'], 'B_02.01', ['c0010']),
  ref('B_02.02', ['c0010'], 'B_02.01', ['c0010']),
  ref('B_02.02', ['c0020'], 'B_01.02', ['c0010']),
  ref('B_02.02', ['c0030', 'c0040'], 'B_05.01', PROVIDER),
  ref('B_02.02', ['c0050', 'c0020'], 'B_06.01', ['c0010', 'c0040']),
  ref('B_02.03', ['c0010'], 'B_02.01', ['c0010']),
  ref('B_02.03', ['c0020'], 'B_02.01', ['c0010']),
  ref('B_03.01', ['c0010'], 'B_02.01', ['c0010']),
  ref('B_03.01', ['c0020'], 'B_01.02', ['c0010']),
  ref('B_03.02', ['c0010'], 'B_02.01', ['c0010']),
  ref('B_03.02', ['c0020', 'c0030'], 'B_05.01', PROVIDER),
  ref('B_03.03', ['c0010'], 'B_02.01', ['c0010']),
  ref('B_03.03', ['c0020'], 'B_01.02', ['c0010']),
  ref('B_04.01', ['c0010'], 'B_02.01', ['c0010']),
  ref('B_04.01', ['c0020'], 'B_01.02', ['c0010']),
  ref('B_04.01', ['c0040', 'c0020'], 'B_01.03', ['c0010', 'c0020'], { column: 'c0030', value: 'eba_ZZ:x838' }),
  ref('B_05.01', ['c0110', 'c0120'], 'B_05.01', PROVIDER),
  ref('B_05.02', ['c0010'], 'B_02.01', ['c0010']),
  ref('B_05.02', ['c0030', 'c0040'], 'B_05.01', PROVIDER),
  ref('B_05.02', ['c0060', 'c0070'], 'B_05.01', PROVIDER),
  ref('B_06.01', ['c0040'], 'B_01.02', ['c0010']),
  ref('B_07.01', ['c0010'], 'B_02.01', ['c0010']),
  ref('B_07.01', ['c0020', 'c0030'], 'B_05.01', PROVIDER),
  ref('B_07.01', ['c0010', 'c0020', 'c0040'], 'B_02.02', ['c0010', 'c0030', 'c0060']),
];

/** What a key column holds when there is nothing to report there (EBA Q&A 2024_7285: keys are never empty). */
export const NOT_APPLICABLE = 'Not applicable';
