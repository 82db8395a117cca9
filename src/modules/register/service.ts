import { buildXbrlPackage, preflight, type PreflightReport } from '../../compliance/register/xbrl.js';
import { defaultReferenceDate, type RegisterEntity, type RegisterVendor } from '../../compliance/register/types.js';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import type { AssessmentsService } from '../assessments/service.js';
import type { QuestionnairesService } from '../questionnaires/service.js';
import type { FieldSource } from '../../domain/profileDrafts.js';
import type { VendorProfile } from '../../domain/vendorProfile.js';
import type { WorkspacesService } from '../workspaces/service.js';

type Deps = {
  workspaces: Pick<WorkspacesService, 'list' | 'getMany'>;
  assessments: Pick<AssessmentsService, 'latestCompleteGaps'>;
  questionnaires: Pick<QuestionnairesService, 'latestCompleteMany'>;
  config: Pick<Config, 'institutionName' | 'roi'>;
};

const today = (now: Date) => now.toISOString().slice(0, 10);

/** One entity setting as configured (an environment variable of the service). */
export interface RegisterSetting {
  variable: string;
  label: string;
  value: string | null;
  isDefault: boolean;
}

/** The Register of Information over the caller's workspaces: workbook, xBRL-CSV package, pre-flight check. */
export interface RegisterService {
  /** The reporting entity as configured. */
  entity(): RegisterEntity;
  /** Every vendor the caller can access with its profile, latest completed assessment and questionnaire. */
  vendors(userId: string): Promise<RegisterVendor[]>;
  /** The workbook of the contract (ExcelJS, loaded with the first export). */
  workbook(userId: string, now?: Date): Promise<{ filename: string; buffer: Buffer }>;
  /** The pre-flight check of the register, with the entity settings to show next to it. */
  preflight(userId: string, now?: Date): Promise<PreflightReport & { settings: RegisterSetting[] }>;
  /** The xBRL-CSV package; refused (422) while the pre-flight check finds errors. */
  xbrl(userId: string, now?: Date): Promise<{ filename: string; buffer: Buffer }>;
}

/** The reporting entity from the configuration. */
function entityOf(config: Deps['config']): RegisterEntity {
  const r = config.roi;
  return {
    name: config.institutionName,
    lei: r.entityLei,
    country: r.entityCountry,
    type: r.entityType,
    competentAuthority: r.competentAuthority,
    currency: r.currency,
    scope: r.scope,
    referenceDate: r.referenceDate ?? defaultReferenceDate(),
    totalAssets: r.totalAssets,
    licensedActivity: r.licensedActivity,
  };
}

/**
 * The entity settings as configured (read-only through the API: they are environment
 * variables of the service), for a client to show next to the pre-flight result.
 */
function settingsOf(config: Deps['config']): RegisterSetting[] {
  const e = entityOf(config);
  const r = config.roi;
  return [
    { variable: 'INSTITUTION_NAME', label: 'Name of the entity', value: e.name, isDefault: e.name === 'Financial Entity' },
    { variable: 'ROI_ENTITY_LEI', label: 'LEI of the entity', value: e.lei ?? null, isDefault: false },
    { variable: 'ROI_ENTITY_COUNTRY', label: 'Country of the entity', value: e.country ?? null, isDefault: false },
    { variable: 'ROI_ENTITY_TYPE', label: 'Type of entity (EBA code)', value: e.type ?? null, isDefault: false },
    { variable: 'ROI_COMPETENT_AUTHORITY', label: 'Competent authority', value: e.competentAuthority ?? null, isDefault: false },
    { variable: 'ROI_CURRENCY', label: 'Reporting currency', value: e.currency, isDefault: e.currency === 'EUR' },
    { variable: 'ROI_SCOPE', label: 'Scope of consolidation (CON or IND)', value: e.scope, isDefault: e.scope === 'CON' },
    { variable: 'ROI_REFERENCE_DATE', label: 'Reference date', value: e.referenceDate, isDefault: !r.referenceDate },
    { variable: 'ROI_TOTAL_ASSETS', label: 'Total assets', value: e.totalAssets === undefined ? null : String(e.totalAssets), isDefault: false },
    { variable: 'ROI_LICENSED_ACTIVITY', label: 'Licensed activity (EBA code)', value: e.licensedActivity ?? null, isDefault: false },
  ];
}

/**
 * The Register of Information over every workspace the caller can access
 * (docs/register-of-information.md): the workbook of the contract, the EBA xBRL-CSV
 * report package and its pre-flight check. Each vendor brings its profile, its latest
 * completed assessment and its latest completed questionnaire.
 */
export function registerService(deps: Deps): RegisterService {
  const entity = () => entityOf(deps.config);

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

  return {
    entity,
    vendors,

    async workbook(userId, now = new Date()) {
      // The workbook writer (ExcelJS) is loaded with the first export, not at start.
      const { buildRegisterWorkbook } = await import('../../compliance/register/workbook.js');
      const buffer = await buildRegisterWorkbook({ institutionName: deps.config.institutionName, reportDate: today(now), vendors: await vendors(userId) });
      return { filename: `DORA_Register_of_Information_${today(now)}.xlsx`, buffer };
    },

    async preflight(userId, now = new Date()) {
      const { tables: _tables, ...report } = preflight(entity(), await vendors(userId), today(now));
      return { ...report, settings: settingsOf(deps.config) };
    },

    async xbrl(userId, now = new Date()) {
      const e = entity();
      const { tables, ...report } = preflight(e, await vendors(userId), today(now));
      if (!report.ready) {
        const details = [
          ...report.entity.filter((i) => i.severity === 'error').map((i) => `entity: ${i.field}: ${i.message}`),
          ...report.vendors.flatMap((v) => v.issues.filter((i) => i.severity === 'error').map((i) => `${v.name}: ${i.field}: ${i.message}`)),
        ];
        throw new AppError(
          422,
          'ROI_PREFLIGHT_FAILED',
          `The register is not ready to file: ${report.errors} error(s); see GET /workspaces/roi-preflight`,
          details,
        );
      }
      return buildXbrlPackage(e, tables, now);
    },
  };
}
