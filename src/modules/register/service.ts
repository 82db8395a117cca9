import { buildRegisterWorkbook } from '../../compliance/register/workbook.js';
import { buildXbrlPackage, preflight } from '../../compliance/register/xbrl.js';
import { defaultReferenceDate, type RegisterEntity, type RegisterVendor } from '../../compliance/register/types.js';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import type { AssessmentsService } from '../assessments/service.js';
import type { QuestionnairesService } from '../questionnaires/service.js';
import type { VendorProfile } from '../workspaces/vendorProfile.js';
import type { WorkspacesService } from '../workspaces/service.js';

type Deps = {
  workspaces: Pick<WorkspacesService, 'list' | 'get'>;
  assessments: Pick<AssessmentsService, 'latestComplete'>;
  questionnaires: Pick<QuestionnairesService, 'latestComplete'>;
  config: Pick<Config, 'institutionName' | 'roi'>;
};

const today = (now: Date) => now.toISOString().slice(0, 10);

/** `fn` over `items` with at most `limit` calls in flight; results in input order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * The Register of Information over every workspace the caller can access
 * (docs/register-of-information.md): the workbook of the contract, the EBA xBRL-CSV
 * report package and its pre-flight check. Each vendor brings its profile, its latest
 * completed assessment and its latest completed questionnaire.
 */
export function registerService(deps: Deps) {
  function entity(): RegisterEntity {
    const r = deps.config.roi;
    return {
      name: deps.config.institutionName,
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

  async function vendors(userId: string): Promise<RegisterVendor[]> {
    const list = await deps.workspaces.list(userId);
    const ids = list.map((w) => w.id);
    const assessments = await deps.assessments.latestComplete(ids);
    const out: RegisterVendor[] = [];
    // Profiles and questionnaires are read per workspace through their services, a few at a time.
    const loaded = await mapLimit(list, 8, async (w) => ({ w, ws: await deps.workspaces.get(w.id), q: await deps.questionnaires.latestComplete(w.id) }));
    for (const { w, ws, q } of loaded) {
      if (!ws) continue; // deleted meanwhile
      const a = assessments.get(w.id);
      out.push({
        workspaceId: w.id,
        workspaceSlug: w.workspaceId,
        name: w.workspaceName,
        profile: (ws.vendorProfile ?? {}) as VendorProfile,
        assessment: a && a.completedAt ? { id: a.id, name: a.name, score: a.score, riskRating: a.riskRating, completedAt: a.completedAt, results: a.results ?? [] } : null,
        questionnaire: q ? { id: q.id, title: q.title, score: q.score, completedAt: q.completedAt } : null,
      });
    }
    return out;
  }

  return {
    entity,
    vendors,

    async workbook(userId: string, now = new Date()): Promise<{ filename: string; buffer: Buffer }> {
      const buffer = await buildRegisterWorkbook({ institutionName: deps.config.institutionName, reportDate: today(now), vendors: await vendors(userId) });
      return { filename: `DORA_Register_of_Information_${today(now)}.xlsx`, buffer };
    },

    async preflight(userId: string, now = new Date()) {
      const { tables: _tables, ...report } = preflight(entity(), await vendors(userId), today(now));
      return report;
    },

    /** The xBRL-CSV package; refused (422) while the pre-flight check finds errors. */
    async xbrl(userId: string, now = new Date()): Promise<{ filename: string; buffer: Buffer }> {
      const e = entity();
      const { tables, ...report } = preflight(e, await vendors(userId), today(now));
      if (!report.ready) {
        const details = [
          ...report.entity.filter((i) => i.severity === 'error').map((i) => `entity: ${i.field}: ${i.message}`),
          ...report.vendors.flatMap((v) => v.issues.filter((i) => i.severity === 'error').map((i) => `${v.name}: ${i.field}: ${i.message}`)),
        ];
        throw new AppError(422, 'ROI_PREFLIGHT_FAILED', `The register is not ready to file: ${report.errors} error(s); see GET /workspaces/roi-preflight`, details);
      }
      return buildXbrlPackage(e, tables, now);
    },
  };
}
export type RegisterService = ReturnType<typeof registerService>;
