import { stringify } from 'csv-stringify/sync';
import yazl from 'yazl';
import type { Tables } from './tables.js';
import { COLUMNS, TEMPLATES } from './taxonomy.js';
import type { RegisterEntity } from './types.js';

/**
 * The Register of Information as the EBA xBRL-CSV report package (templates B_01.01 to
 * B_07.01 and B_99.01 of Implementing Regulation (EU) 2024/2956, EBA reporting framework
 * 4.0, module DORA010100), written from the tables the pre-flight checked (tables.ts,
 * preflight.ts). docs/register-of-information.md.
 */

/** `{LEI}.{CON|IND}_{CC}_DORA010100_DORA_{reference date}_{yyyyMMddHHmmssSSS}` (the EBA naming convention). */
export function packageName(entity: RegisterEntity, now: Date): string {
  const ts = now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 17);
  return `${entity.lei}.${entity.scope}_${entity.country}_DORA010100_DORA_${entity.referenceDate}_${ts}`;
}

export const DORA_MODULE = 'http://www.eba.europa.eu/eu/fr/xbrl/crr/fws/dora/4.0/mod/dora.json';
const csv = (header: string[], rows: string[][]) => stringify([header, ...rows], { record_delimiter: '\r\n' });

/** The report package: one folder named like the zip, META-INF/reportPackage.json and reports/*. */
export async function buildXbrlPackage(entity: RegisterEntity, tables: Tables, now: Date): Promise<{ filename: string; buffer: Buffer }> {
  const root = packageName(entity, now);
  const files: [string, string][] = [
    [`${root}/META-INF/reportPackage.json`, `${JSON.stringify({ documentInfo: { documentType: 'https://xbrl.org/report-package/2023' } }, null, 2)}\n`],
    [
      `${root}/reports/report.json`,
      `${JSON.stringify({ documentInfo: { documentType: 'https://xbrl.org/2021/xbrl-csv', extends: [DORA_MODULE] } }, null, 2)}\n`,
    ],
    [
      `${root}/reports/parameters.csv`,
      csv(
        ['name', 'value'],
        [
          ['entityID', `rs:${entity.lei}.${entity.scope}`],
          ['refPeriod', entity.referenceDate],
          ['baseCurrency', `iso4217:${entity.currency}`],
          ['decimalsInteger', '0'],
          ['decimalsMonetary', '-3'],
        ],
      ),
    ],
    [
      `${root}/reports/FilingIndicators.csv`,
      csv(
        ['templateID', 'reported'],
        TEMPLATES.map((t) => [t, tables.rows[t].length ? 'true' : 'false']),
      ),
    ],
    ...TEMPLATES.map((t): [string, string] => [
      `${root}/reports/${t.toLowerCase()}.csv`,
      csv(
        COLUMNS[t],
        tables.rows[t].map((r) => COLUMNS[t].map((c) => r[c] ?? '')),
      ),
    ]),
  ];
  const zip = new yazl.ZipFile();
  const mtime = now;
  for (const [path, content] of files) zip.addBuffer(Buffer.from(content, 'utf8'), path, { mtime });
  zip.end();
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', resolve);
    zip.outputStream.on('error', reject);
  });
  return { filename: `${root}.zip`, buffer: Buffer.concat(chunks) };
}
