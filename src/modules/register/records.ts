import type { RegisterEntity, RegisterFunction } from '../../compliance/register/types.js';
import { defaultReferenceDate } from '../../compliance/register/types.js';
import type { Config } from '../../config.js';
import type { OrgRole } from '../../db/schema/organizations.js';
import { offsetOf, pagination, type PageRequest, type Pagination } from '../../domain/paging.js';
import {
  ENTITY_SETTING_KEYS,
  ENTITY_TYPES,
  type AuditEntry,
  type BusinessFunction,
  type EntitySettings,
  type FunctionInput,
  type FxRate,
} from '../../domain/register.js';
import { isCountryCode, isCurrencyCode, isValidLei } from '../../domain/vendorProfile.js';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import type { OrganizationsService } from '../organizations/service.js';
import type { AuditInput, FunctionRow, FxRateRow, RegisterRepository } from './repository.js';

/**
 * The register's own records, per organization (docs/register-of-information.md): entity
 * settings (org_admin), business functions and exchange rates (org_admin and analyst), and the
 * audit of every change. Any member of the organization reads them.
 */

export type SettingSource = 'stored' | 'organization' | 'environment' | 'default' | 'unset';
export interface EntitySettingView {
  key: keyof EntitySettings;
  label: string;
  value: string | number | null;
  /** Where the value in force comes from: stored on the register page, the organization, the service's environment, a built-in default. */
  source: SettingSource;
  /** The environment variable that gives the default. */
  variable: string;
}
export interface EntityView {
  settings: EntitySettingView[];
  canEdit: boolean;
  updatedAt: string | null;
}

const LABELS: Record<keyof EntitySettings, [string, string]> = {
  name: ['Name of the entity', 'INSTITUTION_NAME'],
  lei: ['LEI of the entity', 'ROI_ENTITY_LEI'],
  country: ['Country of the entity', 'ROI_ENTITY_COUNTRY'],
  entityType: ['Type of entity', 'ROI_ENTITY_TYPE'],
  competentAuthority: ['Competent authority', 'ROI_COMPETENT_AUTHORITY'],
  currency: ['Reporting currency', 'ROI_CURRENCY'],
  totalAssets: ['Value of total assets', 'ROI_TOTAL_ASSETS'],
  referenceDate: ['Reference date of the register', 'ROI_REFERENCE_DATE'],
};

type Deps = {
  repo: RegisterRepository;
  organizations: Pick<OrganizationsService, 'requireMembership' | 'mine'>;
  config: Pick<Config, 'institutionName' | 'roi'>;
};

/** Who the caller is in their organization. */
export interface Caller {
  orgId: string;
  role: OrgRole;
  userId: string;
}

export interface RegisterRecords {
  caller(userId: string): Promise<Caller>;
  /** The settings in force and where each comes from. */
  entityView(caller: Caller): Promise<EntityView>;
  /** The entity as the register files it. */
  entity(caller: Caller): Promise<RegisterEntity>;
  /** Stores settings (org_admin); null clears a stored value. Every change is audited. */
  updateEntity(caller: Caller, input: Partial<EntitySettings>): Promise<EntityView>;
  /** The organization's functions: all, or one page (with the total). */
  functions(caller: Caller): Promise<BusinessFunction[]>;
  functionsPage(caller: Caller, q: PageRequest): Promise<{ functions: BusinessFunction[]; pagination: Pagination }>;
  createFunction(caller: Caller, input: FunctionInput): Promise<BusinessFunction>;
  updateFunction(caller: Caller, id: string, input: Partial<FunctionInput>): Promise<BusinessFunction>;
  /** Deletes a function; `usedBy` lists the contracts that still support it (409 then). */
  deleteFunction(caller: Caller, id: string, usedBy: string[]): Promise<void>;
  /** Rates into the entity's base currency. */
  rates(caller: Caller): Promise<{ baseCurrency: string; rates: FxRate[] }>;
  /** One page of them, with the total. */
  ratesPage(caller: Caller, q: PageRequest): Promise<{ baseCurrency: string; rates: FxRate[]; pagination: Pagination }>;
  putRate(caller: Caller, input: { currency: string; date: string; rate: number }): Promise<FxRate>;
  deleteRate(caller: Caller, currency: string, date: string): Promise<void>;
  audit(caller: Caller, q: PageRequest & { kind?: string }): Promise<{ entries: AuditEntry[]; pagination: Pagination }>;
}

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const functionView = (r: FunctionRow): BusinessFunction => ({
  id: r.id,
  code: r.code,
  name: r.name,
  licensedActivity: r.licensedActivity,
  criticality: r.criticality as BusinessFunction['criticality'],
  reasons: r.reasons,
  lastAssessmentDate: r.lastAssessmentDate,
  rtoHours: r.rtoHours,
  rpoHours: r.rpoHours,
  impact: r.impact as BusinessFunction['impact'],
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
const rateView = (r: FxRateRow): FxRate => ({
  baseCurrency: r.baseCurrency,
  currency: r.currency,
  date: r.rateDate,
  rate: r.rate,
  updatedAt: r.updatedAt.toISOString(),
});
/** A business function as the register builds from it. */
export const registerFunction = (f: BusinessFunction): RegisterFunction => ({
  id: f.id,
  code: f.code,
  name: f.name,
  licensedActivity: f.licensedActivity,
  criticality: f.criticality,
  reasons: f.reasons,
  lastAssessmentDate: f.lastAssessmentDate,
  rtoHours: f.rtoHours,
  rpoHours: f.rpoHours,
  impact: f.impact,
});

const FUNCTION_FIELDS: (keyof FunctionInput)[] = ['name', 'licensedActivity', 'criticality', 'reasons', 'lastAssessmentDate', 'rtoHours', 'rpoHours', 'impact'];
const functionNotFound = () => notFound('Business function not found', 'FUNCTION_NOT_FOUND');
const writers: OrgRole[] = ['org_admin', 'analyst'];
const canWrite = (c: Caller) => {
  if (!writers.includes(c.role)) throw forbidden('Insufficient permission: organization viewers read the register records', 'INSUFFICIENT_PERMISSION');
};

function checkSettings(input: Partial<EntitySettings>) {
  const problems: string[] = [];
  if (input.lei && !isValidLei(input.lei)) problems.push('lei: not a valid LEI (20 characters, ISO 17442 check digits)');
  if (input.country && !isCountryCode(input.country)) problems.push(`country: ${input.country} is not an ISO 3166-1 alpha-2 country code`);
  if (input.currency && !isCurrencyCode(input.currency)) problems.push(`currency: ${input.currency} is not an ISO 4217 currency code`);
  if (input.entityType && !ENTITY_TYPES[input.entityType]) problems.push(`entityType: ${input.entityType} is not a type of entity of the taxonomy`);
  if (problems.length) throw badRequest(problems.join('; '), problems);
}

export function registerRecords(deps: Deps): RegisterRecords {
  const { repo } = deps;
  const env = deps.config.roi;
  const envValue: Record<keyof EntitySettings, string | number | undefined> = {
    name: deps.config.institutionName,
    lei: env.entityLei,
    country: env.entityCountry,
    entityType: env.entityType,
    competentAuthority: env.competentAuthority,
    currency: env.currency,
    totalAssets: env.totalAssets,
    referenceDate: env.referenceDate,
  };

  async function resolved(caller: Caller) {
    const row = await repo.entitySettings(caller.orgId);
    const org = await deps.organizations.mine(caller.userId);
    const stored = row?.values ?? {};
    const settings: EntitySettingView[] = ENTITY_SETTING_KEYS.map((key) => {
      const [label, variable] = LABELS[key];
      const s = stored[key];
      if (s !== undefined && s !== null) return { key, label, value: s, source: 'stored', variable };
      const o = key === 'lei' ? org.lei : key === 'country' ? org.country : null;
      if (o) return { key, label, value: o, source: 'organization', variable };
      if (key === 'referenceDate' && !envValue.referenceDate) return { key, label, value: defaultReferenceDate(), source: 'default', variable };
      const e = envValue[key];
      if (e === undefined || e === '') return { key, label, value: null, source: 'unset', variable };
      const isDefault = (key === 'name' && e === 'Financial Entity') || (key === 'currency' && e === 'EUR' && !process.env.ROI_CURRENCY);
      return { key, label, value: e, source: isDefault ? 'default' : 'environment', variable };
    });
    return { row, settings };
  }

  const records: RegisterRecords = {
    async caller(userId) {
      const m = await deps.organizations.requireMembership(userId);
      return { orgId: m.orgId, role: m.role, userId };
    },

    async entityView(caller) {
      const { row, settings } = await resolved(caller);
      return { settings, canEdit: caller.role === 'org_admin', updatedAt: row?.updatedAt.toISOString() ?? null };
    },

    async entity(caller) {
      const { row, settings } = await resolved(caller);
      const v = Object.fromEntries(settings.map((s) => [s.key, s.value ?? undefined])) as Record<keyof EntitySettings, string | number | undefined>;
      return {
        name: String(v.name ?? 'Financial Entity'),
        lei: v.lei as string | undefined,
        country: v.country as string | undefined,
        type: v.entityType as string | undefined,
        competentAuthority: v.competentAuthority as string | undefined,
        currency: String(v.currency ?? 'EUR'),
        scope: env.scope,
        referenceDate: String(v.referenceDate),
        totalAssets: v.totalAssets === undefined ? undefined : Number(v.totalAssets),
        integratedOn: row?.createdAt.toISOString().slice(0, 10),
        updatedOn: row?.updatedAt.toISOString().slice(0, 10),
      };
    },

    async updateEntity(caller, input) {
      if (caller.role !== 'org_admin') throw forbidden('Insufficient permission: only an org_admin can change the entity settings', 'INSUFFICIENT_PERMISSION');
      checkSettings(input);
      await repo.updateEntitySettings(caller.orgId, caller.userId, (current) => {
        const values: Partial<EntitySettings> = { ...current };
        const changes: AuditInput[] = [];
        for (const key of ENTITY_SETTING_KEYS) {
          if (!(key in input)) continue;
          const next = input[key] ?? null;
          const old = current[key] ?? null;
          if (str(next) === str(old)) continue;
          if (next === null) delete values[key];
          else (values as Record<string, unknown>)[key] = next;
          changes.push({ kind: 'entity', subject: 'entity', field: key, oldValue: str(old), newValue: str(next) });
        }
        return { values, changes };
      });
      return records.entityView(caller);
    },

    async functions(caller) {
      return (await repo.functions(caller.orgId)).map(functionView);
    },

    async functionsPage(caller, q) {
      const [rows, total] = await Promise.all([repo.functions(caller.orgId, { offset: offsetOf(q), limit: q.limit }), repo.countFunctions(caller.orgId)]);
      return { functions: rows.map(functionView), pagination: pagination(q, total) };
    },

    async createFunction(caller, input) {
      canWrite(caller);
      const values = { ...input, reasons: input.reasons ?? null };
      const insert = () =>
        repo.insertFunction(caller.orgId, caller.userId, values, (code) =>
          FUNCTION_FIELDS.map((f) => ({ kind: 'function' as const, subject: code, field: f, oldValue: null, newValue: str(values[f]) })).filter(
            (c) => c.newValue !== null,
          ),
        );
      try {
        return functionView(await insert());
      } catch (err) {
        // Two functions created at once drew the same code: the unique index refused one; draw again.
        if ((err as { code?: string }).code === '23505' || String((err as Error).message).includes('business_functions_org_code_uidx'))
          return functionView(await insert());
        throw err;
      }
    },

    async updateFunction(caller, id, input) {
      canWrite(caller);
      const row = await repo.updateFunction(caller.orgId, caller.userId, id, (cur) => {
        const values: Partial<FunctionRow> = {};
        const changes: AuditInput[] = [];
        for (const f of FUNCTION_FIELDS) {
          if (!(f in input)) continue;
          const next = (input[f] ?? null) as never;
          if (str(next) === str(cur[f])) continue;
          (values as Record<string, unknown>)[f] = next;
          changes.push({ kind: 'function', subject: cur.code, field: f, oldValue: str(cur[f]), newValue: str(next) });
        }
        return { values, changes };
      });
      if (!row) throw functionNotFound();
      return functionView(row);
    },

    async deleteFunction(caller, id, usedBy) {
      canWrite(caller);
      const cur = await repo.functionById(caller.orgId, id);
      if (!cur) throw functionNotFound();
      if (usedBy.length)
        throw new AppError(
          409,
          'FUNCTION_IN_USE',
          `Function ${cur.code} (${cur.name}) is supported by ${usedBy.join(', ')}: unlink it from these contracts first`,
          usedBy,
        );
      await repo.deleteFunction(caller.orgId, caller.userId, id, (f) => [
        { kind: 'function', subject: f.code, field: 'deleted', oldValue: f.name, newValue: null },
      ]);
    },

    async rates(caller) {
      const base = (await records.entity(caller)).currency;
      return { baseCurrency: base, rates: (await repo.rates(caller.orgId, base)).map(rateView) };
    },

    async ratesPage(caller, q) {
      const base = (await records.entity(caller)).currency;
      const [rows, total] = await Promise.all([repo.rates(caller.orgId, base, { offset: offsetOf(q), limit: q.limit }), repo.countRates(caller.orgId, base)]);
      return { baseCurrency: base, rates: rows.map(rateView), pagination: pagination(q, total) };
    },

    async putRate(caller, input) {
      canWrite(caller);
      if (!isCurrencyCode(input.currency)) throw badRequest(`currency: ${input.currency} is not an ISO 4217 currency code`);
      const base = (await records.entity(caller)).currency;
      if (input.currency === base) throw badRequest(`currency: ${base} is the reporting currency; rates convert other currencies into it`);
      return rateView(
        await repo.upsertRate(caller.orgId, caller.userId, { baseCurrency: base, currency: input.currency, rateDate: input.date, rate: input.rate }),
      );
    },

    async deleteRate(caller, currency, date) {
      canWrite(caller);
      const base = (await records.entity(caller)).currency;
      if (!(await repo.deleteRate(caller.orgId, caller.userId, { baseCurrency: base, currency, rateDate: date })))
        throw notFound(`No ${currency} rate recorded for ${date}`, 'FX_RATE_NOT_FOUND');
    },

    async audit(caller, q) {
      const { rows, total } = await repo.audit(caller.orgId, offsetOf(q), q.limit, q.kind);
      return {
        entries: rows.map((r) => ({
          id: r.id,
          kind: r.kind as AuditEntry['kind'],
          subject: r.subject,
          field: r.field,
          oldValue: r.oldValue,
          newValue: r.newValue,
          changedBy: r.changedBy ? { id: r.changedBy, name: r.changedByName ?? '' } : null,
          changedAt: r.changedAt.toISOString(),
        })),
        pagination: pagination(q, total),
      };
    },
  };
  return records;
}
