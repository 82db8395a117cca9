import { ICT_SERVICE_TYPES, type IctServiceType, type VendorProfile } from '../../domain/vendorProfile.js';
import type { Row } from './dpmxl.js';
import { COLUMNS, NOT_APPLICABLE, TEMPLATES, type TemplateId } from './taxonomy.js';
import type { RegisterInput, RegisterRate, RegisterVendor } from './types.js';

/**
 * The rows of every EBA template built from the register's records (mapping column by column:
 * docs/register-of-information.md). Nothing is guessed: a value the records do not hold is an
 * empty cell, and the pre-flight (preflight.ts) says what to enter.
 */

/** Where a row comes from: what the analyst edits to change it. */
export type Origin =
  | { kind: 'entity' }
  | { kind: 'function'; functionId: string }
  | { kind: 'vendor'; workspaceId: string }
  | { kind: 'contract'; workspaceId: string; contract: number }
  | { kind: 'subcontractor'; workspaceId: string; index: number }
  | { kind: 'none' };

export interface Tables {
  rows: Record<TemplateId, Row[]>;
  origin: Record<TemplateId, Origin[]>;
}

// Closed-list codes of the DORA 4.0 taxonomy.
export const IDENTIFIER_TYPE_CODES: Record<string, string> = {
  LEI: 'eba_qCO:qx2000',
  NIN: 'eba_qCO:qx2001',
  EUID: 'eba_qCO:qx2002',
  CRN: 'eba_qCO:qx2003',
  VAT: 'eba_qCO:qx2004',
  PNR: 'eba_qCO:qx2005',
};
export const YES = 'eba_BT:x28';
export const NO = 'eba_BT:x29';
export const NOT_ASSESSED = 'eba_BT:x21';
const LEVEL: Record<string, string> = { low: 'eba_ZZ:x791', medium: 'eba_ZZ:x792', high: 'eba_ZZ:x793', not_assessed: 'eba_ZZ:x799' };
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
const ARRANGEMENT: Record<string, string> = { standalone: 'eba_CO:x1', overarching: 'eba_CO:x2', subsequent: 'eba_CO:x3' };
const TERMINATION: Record<string, string> = {
  expired: 'eba_CO:x4',
  provider_breach: 'eba_CO:x5',
  provider_impediments: 'eba_CO:x6',
  data_security: 'eba_CO:x7',
  authority_request: 'eba_CO:x8',
  other: 'eba_CO:x9',
};
const CRITICALITY: Record<string, string> = { yes: YES, no: NO, not_assessed: NOT_ASSESSED };
export const NOT_A_BRANCH = 'eba_ZZ:x839';
const LEGAL_PERSON = 'eba_CT:x212';
const ULTIMATE_PARENT = 'eba_RP:x53';
/** "Not applicable" of a country key (B_02.02 c0150, c0160; EBA Q&A on B_02.02.0150 and .0160). */
export const NOT_APPLICABLE_COUNTRY = 'eba_GA:qx2007';
export const OPEN_END = '9999-12-31';

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

/** The vendors reported (those with at least one contract), in name order. */
export function includedVendors(vendors: RegisterVendor[]): RegisterVendor[] {
  return vendors
    .filter((v) => (v.profile.contracts ?? []).length > 0)
    .sort((a, b) => a.name.localeCompare(b.name) || a.workspaceId.localeCompare(b.workspaceId));
}

/**
 * The rate of a currency into the base currency as at the reference date: the latest recorded
 * on or before it. Null when none is recorded (the amount is then not reported: the pre-flight asks for the rate).
 */
export function rateFor(rates: RegisterRate[], currency: string, base: string, referenceDate: string): number | null {
  if (currency === base) return 1;
  const usable = rates.filter((r) => r.currency === currency && r.date <= referenceDate).sort((a, b) => b.date.localeCompare(a.date));
  return usable[0]?.rate ?? null;
}

/** An amount in the base currency (2 decimals), or null when the contract has none or no rate applies. */
export function amountInBase(cost: { amount: number; currency: string } | undefined, input: Pick<RegisterInput, 'rates' | 'entity'>): number | null {
  if (!cost) return null;
  const rate = rateFor(input.rates, cost.currency, input.entity.currency, input.entity.referenceDate);
  return rate === null ? null : Math.round(cost.amount * rate * 100) / 100;
}

/** The ICT service type of a contract (its own, else the provider's). */
export const serviceTypeOf = (p: VendorProfile, c: NonNullable<VendorProfile['contracts']>[number]) => c.ictServiceType ?? p.ictServiceType;

/** Whether a contract stores data: as recorded, else yes when storage countries are recorded. */
export const storesData = (c: NonNullable<VendorProfile['contracts']>[number]) => c.storesData ?? (c.dataStorageLocations?.length ? true : undefined);

/** Subcontractors reported at rank 2: those with an identification code, the first of each code. */
export function reportedSubcontractors(p: VendorProfile) {
  const seen = new Set<string>();
  return (p.subcontractors ?? [])
    .map((s, index) => ({ ...s, index }))
    .filter((s) => {
      if (!s.identifier?.value) return false;
      const k = `${s.identifier.type}|${s.identifier.value}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}

/** Whether a contract supports a critical or important function. */
export function supportsCritical(c: { functionIds?: string[] }, input: Pick<RegisterInput, 'functions'>): boolean {
  return (c.functionIds ?? []).some((id) => input.functions.find((f) => f.id === id)?.criticality === 'yes');
}

/**
 * Whether B_07.01 (assessment of the ICT services) has a row for this contract: for a service
 * supporting a critical or important function, and for any whose vendor has been assessed.
 */
export function assessed(p: VendorProfile, c: { functionIds?: string[] }, input: Pick<RegisterInput, 'functions'>): boolean {
  return supportsCritical(c, input) || !!(p.substitutability || p.exitPlan || p.lastAuditDate);
}

/** Builds every template's rows. */
export function buildTables(input: RegisterInput): Tables {
  const { entity } = input;
  const rows = Object.fromEntries(TEMPLATES.map((t) => [t, [] as Row[]])) as Record<TemplateId, Row[]>;
  const origin = Object.fromEntries(TEMPLATES.map((t) => [t, [] as Origin[]])) as Record<TemplateId, Origin[]>;
  const add = (t: TemplateId, from: Origin, values: (string | number | undefined | null)[]) => {
    const row: Row = {};
    COLUMNS[t].forEach((c, i) => (row[c] = values[i] === undefined || values[i] === null ? '' : String(values[i])));
    rows[t].push(row);
    origin[t].push(from);
  };
  const lei = entity.lei ?? '';
  const ent: Origin = { kind: 'entity' };
  add('B_01.01', ent, [lei, entity.name, ga(entity.country), entity.type, entity.competentAuthority, entity.referenceDate]);
  add('B_01.02', ent, [
    lei,
    entity.name,
    ga(entity.country),
    entity.type,
    ULTIMATE_PARENT,
    lei,
    entity.updatedOn ?? input.reportDate,
    entity.integratedOn ?? input.reportDate,
    OPEN_END,
    cu(entity.currency),
    entity.totalAssets,
  ]);

  for (const f of input.functions) {
    add('B_06.01', { kind: 'function', functionId: f.id }, [
      f.code,
      f.licensedActivity,
      f.name.slice(0, 300),
      lei,
      CRITICALITY[f.criticality],
      f.reasons ? f.reasons.slice(0, 300) : '',
      f.lastAssessmentDate,
      f.rtoHours,
      f.rpoHours,
      LEVEL[f.impact] ?? IMPACT_NOT_ASSESSED,
    ]);
  }
  const codeOf = (id: string) => input.functions.find((f) => f.id === id)?.code ?? '';

  const providers = new Set<string>();
  for (const v of includedVendors(input.vendors)) {
    const p = v.profile;
    const id = p.identifier?.value ?? '';
    const idType = p.identifier ? (IDENTIFIER_TYPE_CODES[p.identifier.type] ?? '') : '';
    const contracts = p.contracts ?? [];
    const amounts = contracts.map((c) => amountInBase(c.annualCost, input));
    const total = amounts.every((a) => a !== null) ? Math.round(amounts.reduce((n, a) => n + (a ?? 0), 0) * 100) / 100 : null;
    add('B_05.01', { kind: 'vendor', workspaceId: v.workspaceId }, [
      id,
      idType,
      '',
      '',
      p.legalName,
      p.legalName,
      LEGAL_PERSON,
      ga(p.country),
      total === null ? '' : cu(entity.currency),
      total,
      id,
      idType,
    ]);
    providers.add(`${id}|${idType}`);
    const subs = reportedSubcontractors(p);
    const lastAudit = p.lastAuditDate ?? (v.assessment ? v.assessment.completedAt.toISOString().slice(0, 10) : '');
    const reason =
      p.substitutability === 'not_substitutable' || p.substitutability === 'highly_complex'
        ? p.exitPlan?.alternativeProvidersIdentified === false
          ? 'eba_ZZ:x963'
          : 'eba_ZZ:x964'
        : '';

    contracts.forEach((c, i) => {
      const from: Origin = { kind: 'contract', workspaceId: v.workspaceId, contract: i };
      const service = ta(serviceTypeOf(p, c));
      const stores = storesData(c);
      const ended = !!c.endDate && c.endDate <= entity.referenceDate;
      add('B_02.01', from, [c.reference, ARRANGEMENT[c.arrangementType ?? 'standalone'], c.overarchingReference, cu(entity.currency), amounts[i]]);
      // One row per function, country of provision, storage and processing country (Article 4(2) of the ITS: a row per value).
      const fns = c.functionIds?.length ? c.functionIds.map(codeOf) : [''];
      const service_ = c.serviceLocations?.length ? c.serviceLocations.map(ga) : [''];
      const storage = stores === false ? [NOT_APPLICABLE_COUNTRY] : c.dataStorageLocations?.length ? c.dataStorageLocations.map(ga) : [''];
      const processing = c.processesData === false ? [NOT_APPLICABLE_COUNTRY] : c.dataProcessingLocations?.length ? c.dataProcessingLocations.map(ga) : [''];
      for (const fn of fns)
        for (const country of service_)
          for (const st of storage)
            for (const pr of processing)
              add('B_02.02', from, [
                c.reference,
                lei,
                id,
                idType,
                fn,
                service,
                c.startDate,
                c.endDate ?? OPEN_END,
                ended && c.terminationReason ? TERMINATION[c.terminationReason] : '',
                c.noticePeriodDaysEntity,
                c.noticePeriodDaysProvider,
                ga(c.governingLaw),
                country,
                yn(stores),
                st,
                pr,
                stores && c.dataSensitivity ? LEVEL[c.dataSensitivity] : '',
                p.criticalityTier ? RELIANCE[p.criticalityTier] : '',
              ]);
      add('B_03.01', from, [c.reference, lei, 'true']);
      add('B_03.02', from, [c.reference, id, idType]);
      add('B_04.01', from, [c.reference, lei, NOT_A_BRANCH, NOT_APPLICABLE]);
      add('B_05.02', from, [c.reference, service, id, idType, 1, id, idType]);
      for (const s of subs) {
        const subType = IDENTIFIER_TYPE_CODES[s.identifier!.type] ?? '';
        add('B_05.02', { kind: 'subcontractor', workspaceId: v.workspaceId, index: s.index }, [
          c.reference,
          service,
          s.identifier!.value,
          subType,
          2,
          id,
          idType,
        ]);
      }
      if (assessed(p, c, input))
        add('B_07.01', from, [
          c.reference,
          id,
          idType,
          service,
          p.substitutability ? SUBSTITUTABILITY[p.substitutability] : '',
          reason,
          lastAudit,
          yn(p.exitPlan?.exists),
          p.exitPlan?.reintegrationPossibility ? REINTEGRATION[p.exitPlan.reintegrationPossibility] : '',
          p.discontinuationImpact ? LEVEL[p.discontinuationImpact] : IMPACT_NOT_ASSESSED,
          yn(p.exitPlan?.alternativeProvidersIdentified, NOT_ASSESSED),
          (p.exitPlan?.alternativeProviders ?? []).join('; '),
        ]);
    });
  }
  // Subcontractors as providers of rank 2 (B_05.01), once each; a direct provider keeps its own row.
  for (const v of includedVendors(input.vendors)) {
    for (const s of reportedSubcontractors(v.profile)) {
      const type = IDENTIFIER_TYPE_CODES[s.identifier!.type] ?? '';
      const k = `${s.identifier!.value}|${type}`;
      if (providers.has(k)) continue;
      providers.add(k);
      add('B_05.01', { kind: 'subcontractor', workspaceId: v.workspaceId, index: s.index }, [
        s.identifier!.value,
        type,
        '',
        '',
        s.name,
        s.name,
        LEGAL_PERSON,
        ga(s.country),
        '',
        '',
        s.identifier!.value,
        type,
      ]);
    }
  }
  add('B_99.01', { kind: 'none' }, DEFINITIONS);
  return { rows, origin };
}

/** Label of an ICT service type (`S19 Cloud services: SaaS`). */
export function serviceLabel(code: string | undefined): string | null {
  return code ? `${code} ${ICT_SERVICE_TYPES[code as IctServiceType] ?? ''}`.trim() : null;
}
