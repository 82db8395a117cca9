import { stringify } from 'csv-stringify/sync';
import yazl from 'yazl';
import { ICT_SERVICE_TYPES, isValidLei, type IctServiceType } from '../../domain/vendorProfile.js';
import type { RegisterEntity, RegisterVendor } from './types.js';

/**
 * The Register of Information as the EBA xBRL-CSV report package (templates B_01.01 to
 * B_07.01 and B_99.01 of Implementing Regulation (EU) 2024/2956, EBA reporting framework
 * 4.0, module DORA010100). Mapping of every column from the vendor profile and the
 * assumptions: docs/register-of-information.md.
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
/** Column codes of each template (B_03.03's link column is c0031 in the EBA layout). */
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

/** Columns identifying a row (must be filled and unique within the template). */
export const KEYS: Partial<Record<TemplateId, string[]>> = {
  'B_01.01': ['c0010'],
  'B_01.02': ['c0010'],
  'B_02.01': ['c0010'],
  'B_02.02': ['c0010', 'c0020', 'c0030', 'c0050', 'c0060'],
  'B_03.01': ['c0010', 'c0020'],
  'B_03.02': ['c0010', 'c0020'],
  'B_04.01': ['c0010', 'c0020', 'c0030'],
  'B_05.01': ['c0010'],
  'B_05.02': ['c0010', 'c0020', 'c0030', 'c0050'],
  'B_06.01': ['c0010', 'c0040'],
  'B_07.01': ['c0010', 'c0020', 'c0040'],
};

/** Cross-template references: [template, column] must equal [target template, column] of some row. */
export const REFERENCES: [TemplateId, string, TemplateId, string][] = [
  ['B_01.02', 'c0060', 'B_01.02', 'c0010'],
  ['B_02.02', 'c0010', 'B_02.01', 'c0010'],
  ['B_02.02', 'c0020', 'B_01.02', 'c0010'],
  ['B_02.02', 'c0030', 'B_05.01', 'c0010'],
  ['B_02.02', 'c0050', 'B_06.01', 'c0010'],
  ['B_03.01', 'c0010', 'B_02.01', 'c0010'],
  ['B_03.01', 'c0020', 'B_01.02', 'c0010'],
  ['B_03.02', 'c0010', 'B_02.01', 'c0010'],
  ['B_03.02', 'c0020', 'B_05.01', 'c0010'],
  ['B_04.01', 'c0010', 'B_02.01', 'c0010'],
  ['B_04.01', 'c0020', 'B_01.02', 'c0010'],
  ['B_05.01', 'c0110', 'B_05.01', 'c0010'],
  ['B_05.02', 'c0010', 'B_02.01', 'c0010'],
  ['B_05.02', 'c0030', 'B_05.01', 'c0010'],
  ['B_06.01', 'c0040', 'B_01.02', 'c0010'],
  ['B_07.01', 'c0010', 'B_02.01', 'c0010'],
  ['B_07.01', 'c0020', 'B_05.01', 'c0010'],
];

// Closed lists (EBA DPM 4.0 codes; where the public material disagrees, the choice is documented).
export const IDENTIFIER_TYPE_CODES: Record<string, string> = {
  LEI: 'eba_qCO:qx2000',
  NIN: 'eba_qCO:qx2001',
  EUID: 'eba_qCO:qx2002',
  CRN: 'eba_qCO:qx2003',
  VAT: 'eba_qCO:qx2004',
  PNR: 'eba_qCO:qx2005',
};
const YES = 'eba_BT:x28';
const NO = 'eba_BT:x29';
const NOT_ASSESSED = 'eba_BT:x21';
const LEVEL: Record<string, string> = { low: 'eba_ZZ:x791', medium: 'eba_ZZ:x792', high: 'eba_ZZ:x793' };
const IMPACT_NOT_ASSESSED = 'eba_ZZ:x799';
/** Level of reliance (B_02.02 c0180) from the vendor's criticality tier. */
const RELIANCE: Record<string, string> = { critical: 'eba_ZZ:x797', high: 'eba_ZZ:x796', medium: 'eba_ZZ:x795', low: 'eba_ZZ:x794' };
const SUBSTITUTABILITY: Record<string, string> = {
  not_substitutable: 'eba_ZZ:x959',
  highly_complex: 'eba_ZZ:x960',
  medium_complexity: 'eba_ZZ:x961',
  easily_substitutable: 'eba_ZZ:x962',
};
const REINTEGRATION: Record<string, string> = { easy: 'eba_ZZ:x798', difficult: 'eba_ZZ:x966', highly_complex: 'eba_ZZ:x967' };
const STANDALONE = 'eba_CO:x1';
const NOT_A_BRANCH = 'eba_ZZ:x839';
const LEGAL_PERSON = 'eba_CT:x212';
const ULTIMATE_PARENT = 'eba_RP:x53';
const NOT_APPLICABLE_COUNTRY = 'eba_GA:qx2007';
const OPEN_END = '9999-12-31';

const ga = (c: string | undefined) => (c ? `eba_GA:${c}` : '');
const cu = (c: string | undefined) => (c ? `eba_CU:${c}` : '');
const ta = (s: string | undefined) => (s ? `eba_TA:${s}` : '');
const yn = (b: boolean | undefined, unknown = '') => (b === undefined ? unknown : b ? YES : NO);

/** B_99.01: the entity's definitions of the scales it reports with (one row, c0010-c0190). */
export const DEFINITIONS = [
  'Standalone arrangement: a contract with the provider not governed by a framework agreement',
  'Overarching arrangement: a framework agreement under which service orders are concluded',
  'Subsequent or associated arrangement: an order or schedule under a framework agreement',
  'Data sensitiveness low: public or internal data without personal data',
  'Data sensitiveness medium: personal data or confidential business data',
  'Data sensitiveness high: special-category personal data, payment data or data under banking secrecy',
  'Impact of discontinuing the function low: no client impact within 72 hours',
  'Impact of discontinuing the function medium: client impact within 72 hours, recoverable',
  'Impact of discontinuing the function high: immediate client or market impact, regulatory breach likely',
  'Not substitutable: no alternative provider exists for the service',
  'Highly complex substitutability: an alternative exists; migration would exceed 12 months',
  'Medium complexity: an alternative exists; migration within 3 to 12 months',
  'Easily substitutable: an alternative exists; migration within 3 months',
  'Reintegration easy: the service can be brought in-house within 3 months',
  'Reintegration difficult: the service can be brought in-house within 12 months',
  'Reintegration highly complex: the service cannot realistically be brought in-house',
  'Impact of discontinuing the ICT service low: absorbed by manual processes',
  'Impact of discontinuing the ICT service medium: degrades a critical or important function',
  'Impact of discontinuing the ICT service high: stops a critical or important function',
];

export type Row = Record<string, string>;
export interface Tables {
  rows: Record<TemplateId, Row[]>;
  /** For each row of each template, the workspace it comes from (null: the entity). */
  origin: Record<TemplateId, (string | null)[]>;
}

export interface PreflightIssue {
  severity: 'error' | 'warning';
  template: TemplateId | null;
  column: string | null;
  /** Where to fix it: a configuration variable or a vendor profile field. */
  field: string;
  message: string;
}

/** A profile value taken from a document: where it came from (docs/register-drafting.md). */
export interface PreflightSource {
  field: string;
  path: string;
  document: string;
  quote: string;
  link: string;
  action: string;
}

export interface PreflightReport {
  ready: boolean;
  errors: number;
  warnings: number;
  entity: PreflightIssue[];
  vendors: { workspaceId: string; workspaceSlug: string; name: string; included: boolean; issues: PreflightIssue[]; sources: PreflightSource[] }[];
}

/** The function identifier of a vendor's ICT service (B_06.01): `F` and the vendor's position in the register. */
const functionId = (i: number) => `F${i + 1}`;

/** Builds every template's rows from the entity configuration and the vendors (those with at least one contract). */
export function buildTables(entity: RegisterEntity, vendors: RegisterVendor[], reportDate: string): Tables {
  const rows = Object.fromEntries(TEMPLATES.map((t) => [t, [] as Row[]])) as Record<TemplateId, Row[]>;
  const origin = Object.fromEntries(TEMPLATES.map((t) => [t, [] as (string | null)[]])) as Record<TemplateId, (string | null)[]>;
  const add = (t: TemplateId, from: string | null, values: (string | number | undefined | null)[]) => {
    const row: Row = {};
    COLUMNS[t].forEach((c, i) => (row[c] = values[i] === undefined || values[i] === null ? '' : String(values[i])));
    rows[t].push(row);
    origin[t].push(from);
  };
  const lei = entity.lei ?? '';
  add('B_01.01', null, [lei, entity.name, ga(entity.country), entity.type, entity.competentAuthority, reportDate]);
  add('B_01.02', null, [
    lei,
    entity.name,
    ga(entity.country),
    entity.type,
    ULTIMATE_PARENT,
    lei,
    reportDate,
    entity.referenceDate,
    OPEN_END,
    cu(entity.currency),
    entity.totalAssets,
  ]);

  const included = [...vendors]
    .filter((v) => (v.profile.contracts ?? []).length > 0)
    .sort((a, b) => a.name.localeCompare(b.name) || a.workspaceId.localeCompare(b.workspaceId));
  included.forEach((v, i) => {
    const p = v.profile;
    const from = v.workspaceId;
    const id = p.identifier?.value ?? '';
    const idType = p.identifier ? (IDENTIFIER_TYPE_CODES[p.identifier.type] ?? '') : '';
    const fn = functionId(i);
    const lastAssessment = v.assessment ? v.assessment.completedAt.toISOString().slice(0, 10) : '';
    const contracts = p.contracts ?? [];
    const currencies = [...new Set(contracts.filter((c) => c.annualCost).map((c) => c.annualCost!.currency))];
    const total = currencies.length === 1 ? contracts.reduce((n, c) => n + (c.annualCost?.amount ?? 0), 0) : undefined;
    const substitutability = p.substitutability ? SUBSTITUTABILITY[p.substitutability] : '';
    const reason =
      p.substitutability === 'not_substitutable' || p.substitutability === 'highly_complex'
        ? p.exitPlan?.alternativeProvidersIdentified === false
          ? 'eba_ZZ:x963'
          : 'eba_ZZ:x964'
        : '';

    add('B_05.01', from, [
      id,
      idType,
      '',
      '',
      p.legalName,
      p.legalName,
      LEGAL_PERSON,
      ga(p.country),
      currencies.length === 1 ? cu(currencies[0]) : '',
      total,
      id,
      idType,
    ]);
    add('B_06.01', from, [
      fn,
      entity.licensedActivity,
      // biome-ignore lint/correctness/noUnsafeOptionalChaining: an undefined key reads undefined, and the ?? names the fallback
      `${v.name}: ${ICT_SERVICE_TYPES[(p.ictServiceType ?? contracts[0]?.ictServiceType) as IctServiceType] ?? 'ICT service'}`.slice(0, 300),
      lei,
      yn(p.supportsCriticalFunction, NOT_ASSESSED),
      p.supportsCriticalFunction ? `Criticality tier ${p.criticalityTier ?? 'not set'}${p.description ? `: ${p.description}` : ''}`.slice(0, 300) : '',
      lastAssessment,
      '',
      '',
      p.discontinuationImpact ? LEVEL[p.discontinuationImpact] : IMPACT_NOT_ASSESSED,
    ]);
    for (const c of contracts) {
      const service = ta(c.ictServiceType ?? p.ictServiceType);
      const stores = c.storesData;
      add('B_02.01', from, [c.reference, STANDALONE, '', cu(c.annualCost?.currency), c.annualCost?.amount]);
      add('B_02.02', from, [
        c.reference,
        lei,
        id,
        idType,
        fn,
        service,
        c.startDate,
        c.endDate ?? OPEN_END,
        '',
        c.noticePeriodDaysEntity,
        c.noticePeriodDaysProvider,
        ga(c.governingLaw),
        ga(p.country),
        yn(stores),
        stores === false ? NOT_APPLICABLE_COUNTRY : ga(c.dataStorageLocations?.[0]),
        stores === false && !c.dataProcessingLocations?.length ? NOT_APPLICABLE_COUNTRY : ga(c.dataProcessingLocations?.[0]),
        stores && c.dataSensitivity ? LEVEL[c.dataSensitivity] : '',
        p.criticalityTier ? RELIANCE[p.criticalityTier] : '',
      ]);
      add('B_03.01', from, [c.reference, lei, 'true']);
      add('B_03.02', from, [c.reference, id, idType]);
      add('B_04.01', from, [c.reference, lei, NOT_A_BRANCH, '']);
      add('B_05.02', from, [c.reference, service, id, idType, 1, id, idType]);
      add('B_07.01', from, [
        c.reference,
        id,
        idType,
        service,
        substitutability,
        reason,
        lastAssessment,
        yn(p.exitPlan?.exists),
        p.exitPlan?.reintegrationPossibility ? REINTEGRATION[p.exitPlan.reintegrationPossibility] : '',
        p.discontinuationImpact ? LEVEL[p.discontinuationImpact] : IMPACT_NOT_ASSESSED,
        yn(p.exitPlan?.alternativeProvidersIdentified, NOT_ASSESSED),
        (p.exitPlan?.alternativeProviders ?? []).join('; '),
      ]);
    }
  });
  add('B_99.01', null, DEFINITIONS);
  return { rows, origin };
}

/**
 * The pre-flight check (docs/register-of-information.md): errors are what makes the
 * package unfit to file (empty or duplicate keys, broken references, no entity LEI);
 * warnings are mandatory values that are missing. Listed per vendor, with the field to fix.
 */
export function preflight(entity: RegisterEntity, vendors: RegisterVendor[], reportDate: string): PreflightReport & { tables: Tables } {
  const tables = buildTables(entity, vendors, reportDate);
  const entityIssues: PreflightIssue[] = [];
  const byVendor = new Map<string, PreflightIssue[]>(vendors.map((v) => [v.workspaceId, []]));
  const issue = (from: string | null, i: PreflightIssue) => {
    const list = from ? byVendor.get(from) : entityIssues;
    if (list && !list.some((x) => x.message === i.message)) list.push(i);
  };

  // The entity.
  if (!entity.lei)
    issue(null, {
      severity: 'error',
      template: 'B_01.01',
      column: 'c0010',
      field: 'ROI_ENTITY_LEI',
      message: 'LEI of the entity maintaining the register is not configured',
    });
  else if (!isValidLei(entity.lei))
    issue(null, {
      severity: 'error',
      template: 'B_01.01',
      column: 'c0010',
      field: 'ROI_ENTITY_LEI',
      message: `${entity.lei} is not a valid LEI (20 characters, ISO 17442 check digits)`,
    });
  if (!entity.country)
    issue(null, {
      severity: 'error',
      template: 'B_01.01',
      column: 'c0030',
      field: 'ROI_ENTITY_COUNTRY',
      message: 'country of the entity is not configured (it is part of the package name)',
    });
  if (!entity.type)
    issue(null, { severity: 'warning', template: 'B_01.01', column: 'c0040', field: 'ROI_ENTITY_TYPE', message: 'type of entity is not configured' });
  if (!entity.competentAuthority)
    issue(null, {
      severity: 'warning',
      template: 'B_01.01',
      column: 'c0050',
      field: 'ROI_COMPETENT_AUTHORITY',
      message: 'competent authority is not configured',
    });
  if (entity.totalAssets === undefined)
    issue(null, { severity: 'warning', template: 'B_01.02', column: 'c0110', field: 'ROI_TOTAL_ASSETS', message: 'value of total assets is not configured' });
  if (!entity.licensedActivity)
    issue(null, {
      severity: 'warning',
      template: 'B_06.01',
      column: 'c0020',
      field: 'ROI_LICENSED_ACTIVITY',
      message: 'licensed activity of the functions is not configured',
    });

  // Vendors: what is missing in the profile.
  const identifiers = new Map<string, RegisterVendor[]>();
  const references = new Map<string, RegisterVendor[]>();
  for (const v of vendors) {
    const p = v.profile;
    const w = v.workspaceId;
    const contracts = p.contracts ?? [];
    if (!contracts.length) {
      issue(w, {
        severity: 'warning',
        template: 'B_02.01',
        column: 'c0010',
        field: 'vendorProfile.contracts',
        message: 'no contractual arrangement recorded: the vendor is left out of the package until one is',
      });
      continue;
    }
    if (!p.identifier?.value)
      issue(w, {
        severity: 'error',
        template: 'B_05.01',
        column: 'c0010',
        field: 'vendorProfile.identifier',
        message: 'identification code of the provider is empty (key of B_05.01, referenced by B_02.02, B_03.02, B_05.02, B_07.01)',
      });
    else {
      if (p.identifier.type === 'LEI' && !isValidLei(p.identifier.value))
        issue(w, {
          severity: 'error',
          template: 'B_05.01',
          column: 'c0010',
          field: 'vendorProfile.identifier.value',
          message: `${p.identifier.value} is not a valid LEI`,
        });
      const k = p.identifier.value;
      identifiers.set(k, [...(identifiers.get(k) ?? []), v]);
    }
    if (!p.legalName)
      issue(w, {
        severity: 'warning',
        template: 'B_05.01',
        column: 'c0050',
        field: 'vendorProfile.legalName',
        message: 'legal name of the provider is missing',
      });
    if (!p.country)
      issue(w, {
        severity: 'warning',
        template: 'B_05.01',
        column: 'c0080',
        field: 'vendorProfile.country',
        message: "country of the provider's headquarters is missing",
      });
    if (!p.criticalityTier)
      issue(w, {
        severity: 'warning',
        template: 'B_02.02',
        column: 'c0180',
        field: 'vendorProfile.criticalityTier',
        message: 'criticality tier is missing (level of reliance)',
      });
    if (p.supportsCriticalFunction === undefined)
      issue(w, {
        severity: 'warning',
        template: 'B_06.01',
        column: 'c0050',
        field: 'vendorProfile.supportsCriticalFunction',
        message: 'criticality or importance assessment is missing',
      });
    if (!p.substitutability)
      issue(w, { severity: 'warning', template: 'B_07.01', column: 'c0050', field: 'vendorProfile.substitutability', message: 'substitutability is missing' });
    if (!p.exitPlan)
      issue(w, { severity: 'warning', template: 'B_07.01', column: 'c0080', field: 'vendorProfile.exitPlan', message: 'existence of an exit plan is missing' });
    else if (!p.exitPlan.reintegrationPossibility)
      issue(w, {
        severity: 'warning',
        template: 'B_07.01',
        column: 'c0090',
        field: 'vendorProfile.exitPlan.reintegrationPossibility',
        message: 'possibility of reintegration is missing',
      });
    if (!p.discontinuationImpact)
      issue(w, {
        severity: 'warning',
        template: 'B_07.01',
        column: 'c0100',
        field: 'vendorProfile.discontinuationImpact',
        message: 'impact of discontinuing the ICT services is missing',
      });
    if (!v.assessment)
      issue(w, {
        severity: 'warning',
        template: 'B_07.01',
        column: 'c0070',
        field: 'assessments',
        message: 'no completed assessment: date of the last assessment is empty',
      });
    issue(w, {
      severity: 'warning',
      template: 'B_06.01',
      column: 'c0080',
      field: 'function RTO/RPO',
      message: 'recovery time and recovery point objectives of the function are not recorded in the vendor profile',
    });
    contracts.forEach((c, i) => {
      const f = `vendorProfile.contracts.${i}`;
      references.set(c.reference, [...(references.get(c.reference) ?? []), v]);
      if (!c.ictServiceType && !p.ictServiceType)
        issue(w, {
          severity: 'error',
          template: 'B_02.02',
          column: 'c0060',
          field: `${f}.ictServiceType`,
          message: `contract ${c.reference}: type of ICT services is empty (key of B_02.02 and B_07.01)`,
        });
      if (!c.annualCost)
        issue(w, {
          severity: 'warning',
          template: 'B_02.01',
          column: 'c0050',
          field: `${f}.annualCost`,
          message: `contract ${c.reference}: annual expense or estimated cost is missing`,
        });
      if (!c.governingLaw)
        issue(w, {
          severity: 'warning',
          template: 'B_02.02',
          column: 'c0120',
          field: `${f}.governingLaw`,
          message: `contract ${c.reference}: country of the governing law is missing`,
        });
      if (c.noticePeriodDaysEntity === undefined || c.noticePeriodDaysProvider === undefined)
        issue(w, {
          severity: 'warning',
          template: 'B_02.02',
          column: 'c0100',
          field: `${f}.noticePeriodDays*`,
          message: `contract ${c.reference}: notice periods are missing`,
        });
      if (c.storesData === undefined)
        issue(w, {
          severity: 'warning',
          template: 'B_02.02',
          column: 'c0140',
          field: `${f}.storesData`,
          message: `contract ${c.reference}: storage of data is missing`,
        });
      else if (c.storesData && !c.dataStorageLocations?.length)
        issue(w, {
          severity: 'warning',
          template: 'B_02.02',
          column: 'c0150',
          field: `${f}.dataStorageLocations`,
          message: `contract ${c.reference}: location of the data at rest is missing`,
        });
      if (c.endDate && c.endDate < reportDate)
        issue(w, {
          severity: 'warning',
          template: 'B_02.02',
          column: 'c0090',
          field: `${f}.endDate`,
          message: `contract ${c.reference}: ended ${c.endDate}; the reason of the termination is not recorded`,
        });
    });
  }
  for (const [k, vs] of identifiers) {
    if (vs.length < 2) continue;
    for (const v of vs)
      issue(v.workspaceId, {
        severity: 'error',
        template: 'B_05.01',
        column: 'c0010',
        field: 'vendorProfile.identifier',
        message: `duplicate key: identification code ${k} is also used by ${vs
          .filter((x) => x !== v)
          .map((x) => x.name)
          .join(', ')}`,
      });
  }
  for (const [k, vs] of references) {
    if (vs.length < 2) continue;
    for (const v of vs)
      issue(v.workspaceId, {
        severity: 'error',
        template: 'B_02.01',
        column: 'c0010',
        field: 'vendorProfile.contracts.reference',
        message: `duplicate key: contractual arrangement reference ${k} is used ${vs.length} times${vs.some((x) => x !== v) ? ` (also by ${[...new Set(vs.filter((x) => x !== v).map((x) => x.name))].join(', ')})` : ''}`,
      });
  }

  // The tables themselves: every key filled and unique, every reference resolving.
  for (const [t, keys] of Object.entries(KEYS) as [TemplateId, string[]][]) {
    const seen = new Map<string, number>();
    tables.rows[t].forEach((row, i) => {
      const from = tables.origin[t][i]!;
      const empty = keys.filter((k) => !row[k]);
      if (empty.length)
        issue(from, {
          severity: 'error',
          template: t,
          column: empty.join(','),
          field: 'key',
          message: `${t} row ${i + 1}: empty key column ${empty.join(', ')}`,
        });
      const key = keys.map((k) => row[k]).join('|');
      if (seen.has(key)) issue(from, { severity: 'error', template: t, column: keys.join(','), field: 'key', message: `${t}: duplicate key ${key}` });
      seen.set(key, i);
    });
  }
  for (const [t, c, target, tc] of REFERENCES) {
    const values = new Set(tables.rows[target].map((r) => r[tc]));
    tables.rows[t].forEach((row, i) => {
      const v = row[c];
      if (v && !values.has(v))
        issue(tables.origin[t][i]!, {
          severity: 'error',
          template: t,
          column: c,
          field: 'reference',
          message: `${t}.${c} = ${v} refers to no row of ${target} (${tc})`,
        });
    });
  }

  const all = [...entityIssues, ...[...byVendor.values()].flat()];
  const errors = all.filter((i) => i.severity === 'error').length;
  return {
    ready: errors === 0,
    errors,
    warnings: all.length - errors,
    entity: entityIssues,
    vendors: vendors.map((v) => ({
      workspaceId: v.workspaceId,
      workspaceSlug: v.workspaceSlug,
      name: v.name,
      included: (v.profile.contracts ?? []).length > 0,
      issues: byVendor.get(v.workspaceId) ?? [],
      sources: Object.entries(v.sources ?? {}).map(([path, s]) => ({
        field: s.field,
        path,
        document: s.evidence[0]?.title ?? '',
        quote: s.evidence[0]?.quote ?? '',
        link: s.evidence[0]?.link ?? '',
        action: s.action,
      })),
    })),
    tables,
  };
}

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
