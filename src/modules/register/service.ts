import { preflight, type PreflightReport } from '../../compliance/register/preflight.js';
import type { RegisterInput, RegisterVendor } from '../../compliance/register/types.js';
import type { PortfolioConcentration } from '../../compliance/concentration/portfolio.js';
import { buildXbrlPackage } from '../../compliance/register/xbrl.js';
import { ENTITY_TYPES, LICENSED_ACTIVITIES, TERMINATION_REASONS, type BusinessFunction } from '../../domain/register.js';
import type { PageRequest, Pagination } from '../../domain/paging.js';
import type { FieldSource } from '../../domain/profileDrafts.js';
import type { VendorProfile } from '../../domain/vendorProfile.js';
import { AppError } from '../../lib/errors.js';
import type { AssessmentsService } from '../assessments/service.js';
import type { QuestionnairesService } from '../questionnaires/service.js';
import type { WorkspacesService } from '../workspaces/service.js';
import { registerFunction, type Caller, type EntitySettingView, type RegisterRecords } from './records.js';

type Deps = {
  workspaces: Pick<WorkspacesService, 'list' | 'getMany' | 'orgContracts'>;
  assessments: Pick<AssessmentsService, 'latestCompleteGaps'>;
  questionnaires: Pick<QuestionnairesService, 'latestCompleteMany'>;
  records: RegisterRecords;
  /** The concentration figures of the register's vendors and functions (docs/concentration.md), for the workbook's RT.06 sheets. */
  concentration?: (userId: string, vendors: RegisterVendor[], functions: RegisterInput['functions'], now: Date) => Promise<PortfolioConcentration>;
  /** `ROI_LICENSED_ACTIVITY`: the licensed activity proposed for a new function. */
  defaultLicensedActivity?: string;
};

const today = (now: Date) => now.toISOString().slice(0, 10);

/** A function with the contracts that support it. */
export type FunctionView = BusinessFunction & { contracts: { workspaceId: string; vendor: string; contractId: string | null; reference: string }[] };

/** The Register of Information over the caller's workspaces: records, workbook, xBRL-CSV package, pre-flight check. */
export interface RegisterService {
  /** The register's own records (entity settings, functions, rates, audit). */
  records: RegisterRecords;
  /** Every vendor the caller can access with its profile, latest completed assessment and questionnaire. */
  vendors(userId: string): Promise<RegisterVendor[]>;
  /** The workbook: the summary sheets and the EBA templates (ExcelJS, loaded with the first export). */
  workbook(userId: string, now?: Date): Promise<{ filename: string; buffer: Buffer }>;
  /** The pre-flight check of the register, with the entity settings in force. */
  preflight(userId: string, now?: Date): Promise<PreflightReport & { settings: EntitySettingView[] }>;
  /** The xBRL-CSV package; refused (422) while the pre-flight check finds errors. */
  xbrl(userId: string, now?: Date): Promise<{ filename: string; buffer: Buffer }>;
  /** A page of the organization's functions, each with the contracts that support it. */
  functions(caller: Caller, q: PageRequest): Promise<{ functions: FunctionView[]; pagination: Pagination }>;
  /** Deletes a function no contract supports (409 FUNCTION_IN_USE naming them otherwise). */
  deleteFunction(caller: Caller, id: string): Promise<void>;
  /** The EBA closed lists the register's forms choose from. */
  codeLists(): { entityTypes: Option[]; licensedActivities: Option[]; terminationReasons: Option[]; defaultLicensedActivity: string | null };
}
type Option = { value: string; label: string };
const options = (m: Record<string, string>): Option[] => Object.entries(m).map(([value, label]) => ({ value, label }));

/**
 * The Register of Information over every workspace the caller can access
 * (docs/register-of-information.md). Each vendor brings its profile, its latest completed
 * assessment and its latest completed questionnaire; the entity, its functions and the
 * exchange rates come from the organization's register records.
 */
export function registerService(deps: Deps): RegisterService {
  const { records } = deps;

  async function vendors(userId: string): Promise<RegisterVendor[]> {
    const list = await deps.workspaces.list(userId);
    const ids = list.map((w) => w.id);
    // One query each: profiles, latest completed assessments (gaps only), latest completed questionnaires.
    const rows = await deps.workspaces.getMany(ids);
    const profiles = new Map(rows.map((w) => [w.id, w.vendorProfile]));
    const sources = new Map(rows.map((w) => [w.id, w.vendorProfileSources as Record<string, FieldSource>]));
    const assessments = await deps.assessments.latestCompleteGaps(ids);
    const questionnaires = await deps.questionnaires.latestCompleteMany(ids);
    const out: RegisterVendor[] = [];
    for (const w of list) {
      const profile = profiles.get(w.id);
      if (!profile) continue; // deleted meanwhile
      const a = assessments.get(w.id);
      const q = questionnaires.get(w.id);
      out.push({
        workspaceId: w.id,
        workspaceSlug: w.workspaceId,
        name: w.workspaceName,
        profile: profile as VendorProfile,
        lifecycle: w.lifecycle,
        sources: sources.get(w.id) ?? {},
        assessment:
          a && a.completedAt
            ? { id: a.id, name: a.name, score: a.score, riskRating: a.riskRating, completedAt: new Date(a.completedAt), results: a.gaps }
            : null,
        questionnaire: q ? { id: q.id, title: q.title, score: q.score, completedAt: q.completedAt } : null,
      });
    }
    return out;
  }

  async function input(userId: string, now: Date): Promise<RegisterInput> {
    const caller = await records.caller(userId);
    const entity = await records.entity(caller);
    const [v, fns, rates] = await Promise.all([vendors(userId), records.functions(caller), records.rates(caller)]);
    return { entity, vendors: v, functions: fns.map(registerFunction), rates: rates.rates, reportDate: today(now) };
  }

  return {
    records,
    vendors,

    async workbook(userId, now = new Date()) {
      // The workbook writer (ExcelJS) is loaded with the first export, not at start.
      const { buildRegisterWorkbook } = await import('../../compliance/register/workbook.js');
      const data = await input(userId, now);
      const { tables } = preflight(data);
      const concentration = deps.concentration ? await deps.concentration(userId, data.vendors, data.functions, now) : undefined;
      const buffer = await buildRegisterWorkbook({ institutionName: data.entity.name, reportDate: today(now), vendors: data.vendors, tables, concentration });
      return { filename: `DORA_Register_of_Information_${today(now)}.xlsx`, buffer };
    },

    async preflight(userId, now = new Date()) {
      const { tables: _tables, ...report } = preflight(await input(userId, now));
      const caller = await records.caller(userId);
      return { ...report, settings: (await records.entityView(caller)).settings };
    },

    async xbrl(userId, now = new Date()) {
      const data = await input(userId, now);
      const { tables, ...report } = preflight(data);
      if (!report.ready) {
        const errs = (name: string, list: { severity: string; message: string; rules: string[] }[]) =>
          list.filter((i) => i.severity === 'error').map((i) => `${name}: ${i.message}${i.rules.length ? ` (${i.rules.join(', ')})` : ''}`);
        const details = [
          ...errs('entity', report.entity),
          ...report.functions.flatMap((f) => errs(`function ${f.code}`, f.issues)),
          ...report.vendors.flatMap((v) => errs(v.name, v.issues)),
        ];
        throw new AppError(
          422,
          'ROI_PREFLIGHT_FAILED',
          `The register is not ready to file: ${report.errors} blocking issue(s); see GET /workspaces/roi-preflight`,
          details,
        );
      }
      return buildXbrlPackage(data.entity, tables, now);
    },

    async functions(caller, q) {
      const [page, contracts] = await Promise.all([records.functionsPage(caller, q), deps.workspaces.orgContracts(caller.orgId)]);
      const functions = page.functions.map((f) => ({
        ...f,
        contracts: contracts
          .filter((c) => c.contract.functionIds?.includes(f.id))
          .map((c) => ({ workspaceId: c.workspaceId, vendor: c.workspaceName, contractId: c.contract.id ?? null, reference: c.contract.reference })),
      }));
      return { functions, pagination: page.pagination };
    },

    async deleteFunction(caller, id) {
      const usedBy = (await deps.workspaces.orgContracts(caller.orgId))
        .filter((c) => c.contract.functionIds?.includes(id))
        .map((c) => `${c.contract.reference} (${c.workspaceName})`);
      await records.deleteFunction(caller, id, usedBy);
    },

    codeLists() {
      return {
        entityTypes: options(ENTITY_TYPES),
        licensedActivities: options(LICENSED_ACTIVITIES),
        terminationReasons: options(TERMINATION_REASONS),
        defaultLicensedActivity: deps.defaultLicensedActivity && LICENSED_ACTIVITIES[deps.defaultLicensedActivity] ? deps.defaultLicensedActivity : null,
      };
    },
  };
}
