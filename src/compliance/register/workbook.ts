import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { ICT_SERVICE_TYPES, type IctServiceType } from '../../domain/vendorProfile.js';
import type { Tables } from './tables.js';
import { COLUMNS, TEMPLATES } from './taxonomy.js';
import type { RegisterVendor } from './types.js';
import type { PortfolioConcentration } from '../concentration/portfolio.js';

/** Sheet names and headers of the workbook (docs/register-of-information.md). */
export const SHEETS = {
  summary: 'RT.01.01 Summary',
  providers: 'RT.02.01 ICT Providers',
  certifications: 'RT.03.01 Certifications',
  gaps: 'RT.04.01 Gap Summary',
  sources: 'RT.05.01 Field Sources',
  concentration: 'RT.06.01 Concentration',
  supplyChain: 'RT.06.02 Supply Chain',
} as const;

/** Per provider, the concentration figures (docs/concentration.md). */
export const CONCENTRATION_HEADERS = [
  'Provider',
  'Provider key',
  'Names in documents',
  'Countries',
  'Third country',
  'Vendors depending',
  'Share of vendors',
  'Direct (rank 1)',
  'Critical vendors',
  'Critical functions',
  'Share of critical functions',
  'Functions',
  'Vendors (rank)',
] as const;
/** Every link of the supply chain with the passage it came from. */
export const SUPPLY_CHAIN_HEADERS = [
  'Vendor',
  'Workspace ID',
  'Rank',
  'From',
  'Provider',
  'Provider key',
  'Country',
  'Role',
  'Document',
  'Quote',
  'Link',
] as const;

export const PROVIDER_HEADERS = [
  'Vendor',
  'Workspace ID',
  'Legal name',
  'Identifier type',
  'Identifier',
  'Country',
  'ICT service type',
  'Contract references',
  'Contract start date',
  'Contract end date',
  'Criticality tier',
  'Supports critical function',
  'Questionnaire score',
  'Assessment score',
  'Assessment risk',
  'Next review date',
] as const;
export const CERTIFICATION_HEADERS = ['Vendor', 'Workspace ID', 'Certification type', 'Issuer', 'Valid until', 'Status'] as const;
export const GAP_HEADERS = [
  'Vendor',
  'Workspace ID',
  'Assessment',
  'Assessment date',
  'Reference',
  'Obligation',
  'Status',
  'Key obligation',
  'Evidence not found',
  'Assessment risk',
] as const;
/** Where each profile value drafted from the documents came from (docs/register-drafting.md). */
export const SOURCE_HEADERS = [
  'Vendor',
  'Workspace ID',
  'Field',
  'Profile path',
  'Value',
  'Document',
  'Section',
  'Page',
  'Quote',
  'Link',
  'Decision',
  'Decided at',
] as const;
export const TIERS = ['critical', 'high', 'medium', 'low'] as const;

/** Dates are written as ISO text (YYYY-MM-DD): sortable, unambiguous, and no per-cell styles (see below). */
const day = (s: string | null | undefined): string | null => s ?? null;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Contract period of a vendor: earliest start; latest end, or none when a contract is open-ended. */
export function contractPeriod(v: RegisterVendor): { start: string | null; end: string | null; openEnded: boolean } {
  const contracts = v.profile.contracts ?? [];
  if (!contracts.length) return { start: null, end: null, openEnded: false };
  const start = contracts.map((c) => c.startDate).sort()[0]!;
  const openEnded = contracts.some((c) => !c.endDate);
  const end = openEnded
    ? null
    : contracts
        .map((c) => c.endDate!)
        .sort()
        .at(-1)!;
  return { start, end, openEnded };
}

function serviceType(code: string | undefined) {
  return code ? `${code} ${ICT_SERVICE_TYPES[code as IctServiceType] ?? ''}`.trim() : null;
}

function header(ws: ExcelJS.Worksheet, values: readonly string[]) {
  ws.addRow([...values]).commit();
}

/**
 * The DORA Article 28(3) Register of Information workbook, written with exceljs' streaming
 * writer (rows are flushed as they are added). Vendors in name order. First the summary sheets
 * RT.01.01-RT.05.01 (this service's own view), then one sheet per EBA template, B_01.01 to
 * B_99.01, holding exactly the rows and column codes of the xBRL-CSV package's tables.
 * Without a styles part: exceljs' per-cell style bookkeeping tripled the time of a
 * 1,000-vendor register (bench/roi-export.ts), so dates are ISO text and the header row
 * is plain (frozen panes and column widths stay).
 */
export async function buildRegisterWorkbook(input: {
  institutionName: string;
  reportDate: string;
  vendors: RegisterVendor[];
  tables?: Tables;
  /** The portfolio's concentration figures (RT.06.01, RT.06.02). */
  concentration?: PortfolioConcentration;
}): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  wb.creator = 'DORA Vendor Service';
  wb.created = new Date();
  const vendors = [...input.vendors].sort((a, b) => a.name.localeCompare(b.name) || a.workspaceId.localeCompare(b.workspaceId));

  // RT.01.01 Summary
  const summary = wb.addWorksheet(SHEETS.summary);
  summary.columns = [{ width: 28 }, { width: 40 }];
  summary.addRow(['DORA Register of Information (Article 28(3))']).commit();
  summary.addRow(['Institution name', input.institutionName]).commit();
  summary.addRow(['Report date', day(input.reportDate)]).commit();
  summary.addRow(['Vendors', vendors.length]).commit();
  summary.addRow([]).commit();
  header(summary, ['Criticality tier', 'Vendors']);
  for (const tier of TIERS) summary.addRow([cap(tier), vendors.filter((v) => v.profile.criticalityTier === tier).length]).commit();
  summary.addRow(['Not assessed', vendors.filter((v) => !v.profile.criticalityTier).length]).commit();
  await summary.commit();

  // RT.02.01 ICT Providers
  const providers = wb.addWorksheet(SHEETS.providers, { views: [{ state: 'frozen', ySplit: 1 }] });
  providers.columns = PROVIDER_HEADERS.map((h) => ({ width: Math.max(14, h.length + 2) }));
  header(providers, PROVIDER_HEADERS);
  for (const v of vendors) {
    const p = v.profile;
    const period = contractPeriod(v);
    const row = providers.addRow([
      v.name,
      v.workspaceSlug,
      p.legalName ?? null,
      p.identifier?.type ?? null,
      p.identifier?.value ?? null,
      p.country ?? null,
      serviceType(p.ictServiceType),
      (p.contracts ?? []).map((c) => c.reference).join(', ') || null,
      day(period.start),
      period.openEnded ? 'open-ended' : day(period.end),
      p.criticalityTier ? cap(p.criticalityTier) : null,
      p.supportsCriticalFunction === undefined ? null : p.supportsCriticalFunction ? 'Yes' : 'No',
      v.questionnaire?.score ?? null,
      v.assessment?.score ?? null,
      v.assessment?.riskRating ? cap(v.assessment.riskRating) : null,
      day(p.nextReviewDate),
    ]);
    row.commit();
  }
  await providers.commit();

  // RT.03.01 Certifications
  const certs = wb.addWorksheet(SHEETS.certifications, { views: [{ state: 'frozen', ySplit: 1 }] });
  certs.columns = CERTIFICATION_HEADERS.map((h) => ({ width: Math.max(14, h.length + 4) }));
  header(certs, CERTIFICATION_HEADERS);
  for (const v of vendors) {
    for (const c of v.profile.certifications ?? []) {
      certs.addRow([v.name, v.workspaceSlug, c.type, c.issuer ?? null, day(c.validUntil), cap(c.status)]).commit();
    }
  }
  await certs.commit();

  // RT.04.01 Gap Summary: one row per gap (partial or missing) of the latest completed assessment.
  const gaps = wb.addWorksheet(SHEETS.gaps, { views: [{ state: 'frozen', ySplit: 1 }] });
  gaps.columns = GAP_HEADERS.map((h) => ({ width: Math.max(14, h.length + 4) }));
  header(gaps, GAP_HEADERS);
  for (const v of vendors) {
    const a = v.assessment;
    if (!a) continue;
    for (const r of a.results) {
      if (r.status === 'covered') continue;
      const row = gaps.addRow([
        v.name,
        v.workspaceSlug,
        a.name,
        a.completedAt.toISOString().slice(0, 10),
        r.ref,
        r.title,
        cap(r.status),
        r.key ? 'Yes' : 'No',
        r.elements
          .filter((e) => !e.satisfied)
          .map((e) => e.label)
          .join('; '),
        a.riskRating ? cap(a.riskRating) : null,
      ]);
      row.commit();
    }
  }
  await gaps.commit();

  // RT.05.01 Field Sources: one row per profile value taken from a document (accepted or edited draft value).
  const src = wb.addWorksheet(SHEETS.sources, { views: [{ state: 'frozen', ySplit: 1 }] });
  src.columns = SOURCE_HEADERS.map((h) => ({ width: h === 'Quote' ? 80 : Math.max(14, h.length + 4) }));
  header(src, SOURCE_HEADERS);
  for (const v of vendors) {
    for (const [path, s] of Object.entries(v.sources ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
      const e = s.evidence[0];
      const value = typeof s.value === 'object' && s.value !== null ? JSON.stringify(s.value) : s.value === null ? 'indefinite' : String(s.value);
      src
        .addRow([
          v.name,
          v.workspaceSlug,
          s.field,
          path,
          value.slice(0, 32_000),
          e?.title ?? null,
          e?.section || null,
          e?.page ?? null,
          e?.quote.slice(0, 32_000) ?? null,
          e?.link ?? null,
          s.action,
          s.decidedAt.slice(0, 10),
        ])
        .commit();
    }
  }
  await src.commit();

  if (input.concentration) await concentrationSheets(wb, input.concentration, vendors);

  // The EBA templates, as filed: the column codes, then the rows of the package's CSV tables.
  if (input.tables) {
    for (const t of TEMPLATES) {
      const ws = wb.addWorksheet(t, { views: [{ state: 'frozen', ySplit: 1 }] });
      ws.columns = COLUMNS[t].map(() => ({ width: 18 }));
      header(ws, COLUMNS[t]);
      for (const r of input.tables.rows[t]) ws.addRow(COLUMNS[t].map((c) => r[c] || null)).commit();
      await ws.commit();
    }
  }

  await wb.commit();
  await done;
  return Buffer.concat(chunks);
}

const pct = (x: number) => Math.round(x * 1000) / 10;

/** RT.06.01 Concentration (the figures, then one row per provider) and RT.06.02 Supply Chain (one row per link, with its passage). */
async function concentrationSheets(wb: ExcelJS.stream.xlsx.WorkbookWriter, c: PortfolioConcentration, vendors: RegisterVendor[]) {
  const ws = wb.addWorksheet(SHEETS.concentration, { views: [{ state: 'frozen', ySplit: 15 }] });
  ws.columns = CONCENTRATION_HEADERS.map((h) => ({ width: Math.max(14, h.length + 2) }));
  const t = c.totals;
  for (const r of [
    ['Concentration risk (DORA Articles 28(4)(c) and 29)'],
    ['Vendors', t.vendors],
    ['Critical vendors', t.criticalVendors],
    ['Critical or important functions', t.criticalFunctions],
    ['Providers (rank 1 and beyond)', t.providers],
    ['HHI over direct providers (rank 1)', c.index.direct.hhi, cap(c.index.direct.level)],
    ['HHI over vendors', c.index.vendors.hhi, cap(c.index.vendors.level)],
    ['HHI over critical functions', c.index.criticalFunctions.hhi, cap(c.index.criticalFunctions.level)],
    ['Vendors with a third-country provider (%)', t.vendors ? pct(c.thirdCountry.vendorShare) : null, c.thirdCountry.vendors],
    [
      'Critical functions with third-country exposure (%)',
      t.criticalFunctions ? pct(c.thirdCountry.criticalFunctionShare) : null,
      c.thirdCountry.criticalFunctions,
    ],
    [
      'Provider most depended on (% of vendors, % of critical functions)',
      c.index.topProvider?.name ?? null,
      c.index.topProvider ? `${pct(c.index.topProvider.vendorShare)} / ${pct(c.index.topProvider.criticalFunctionShare)}` : null,
    ],
    ['Critical functions without an alternative provider', c.exits.criticalFunctionsWithoutAlternative.map((f) => f.code).join(', ') || null],
    ['Critical vendors without a tested exit plan', c.exits.criticalVendorsWithoutTestedExit.length],
    [],
  ])
    ws.addRow(r).commit();
  header(ws, CONCENTRATION_HEADERS);
  for (const p of c.providers) {
    ws.addRow([
      p.name,
      p.key,
      p.names.join('; '),
      p.countries.join(', ') || null,
      p.thirdCountry ? 'Yes' : 'No',
      p.vendorCount,
      pct(p.vendorShare),
      p.directVendorCount,
      p.criticalVendorCount,
      p.criticalFunctionCount,
      pct(p.criticalFunctionShare),
      p.functions.map((f) => `${f.code}${f.critical ? '*' : ''}`).join(', ') || null,
      p.vendors
        .map((v) => `${v.name} (${v.rank})`)
        .join('; ')
        .slice(0, 32_000),
    ]).commit();
  }
  await ws.commit();

  const chain = wb.addWorksheet(SHEETS.supplyChain, { views: [{ state: 'frozen', ySplit: 1 }] });
  chain.columns = SUPPLY_CHAIN_HEADERS.map((h) => ({ width: h === 'Quote' ? 80 : Math.max(14, h.length + 4) }));
  header(chain, SUPPLY_CHAIN_HEADERS);
  const byId = new Map(vendors.map((v) => [v.workspaceId, v]));
  const nameOf = new Map(c.providers.map((p) => [p.key, p.name]));
  for (const l of c.links) {
    const v = byId.get(l.workspaceId);
    const e = l.evidence[0];
    chain
      .addRow([
        v?.name ?? null,
        v?.workspaceSlug ?? null,
        l.rank,
        l.from === 'entity' ? 'The entity' : (nameOf.get(l.from) ?? l.from),
        l.writtenName,
        l.to,
        l.country,
        l.role,
        e?.title ?? null,
        e?.quote.slice(0, 32_000) ?? null,
        e?.link ?? null,
      ])
      .commit();
  }
  await chain.commit();
}
