import { randomUUID } from 'node:crypto';
import { vendorNamesOf } from '../../domain/vendorNames.js';
import { Value } from 'typebox/value';
import { draftFields, valueKey, type Passage } from '../../compliance/drafting/draft.js';
import { FIELD_SPECS, isDraftField } from '../../compliance/drafting/fields.js';
import type { ModelExtractor } from '../../compliance/drafting/model.js';
import {
  DRAFT_FIELDS,
  type DraftField,
  type DraftFieldState,
  type DraftSummary,
  type DraftValue,
  type Evidence,
  type FieldSource,
} from '../../domain/profileDrafts.js';
import { offsetOf, pagination, type PageRequest, type Pagination } from '../../domain/paging.js';
import type { Scope } from '../../domain/scope.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import type { RetrievalService } from '../../rag/retrieval.js';
import type { ChunkRow, RagRepository } from '../rag/repository.js';
import type { NotificationsService } from '../notifications/service.js';
import type { WorkspacesService } from '../workspaces/service.js';
import { ContractSchema, isCountryCode, PROFILE_FIELD_SCHEMAS, type Contract, type VendorProfile } from '../../domain/vendorProfile.js';
import type { ContractsService } from '../contracts/service.js';
import type { ProfileDraftRow, ProfileDraftsRepository } from './repository.js';

export const DRAFT_QUEUE = 'profile-draft';
/** Passages retrieved per query (the workspace's, the DORA corpus left out). */
export const PASSAGES_PER_QUERY = 12;
/** A pending or running draft not updated for this long is taken as dead (the queue's job expiry is 15 min). */
export const STALE_AFTER_MS = 20 * 60_000;

/** The part of the job queue (src/jobs/queue.ts) this module uses. */
export interface DraftJobs {
  define<T>(name: string, handler: (data: T, ctx: { retryCount: number; retryLimit: number }) => Promise<void>, options?: { retryLimit?: number }): void;
  send<T extends object>(name: string, data: T): Promise<string>;
}

export interface DecisionInput {
  field: string;
  action: 'accept' | 'edit' | 'reject';
  value?: unknown;
  /** For a conflict: which candidate to accept (index in `candidates`). */
  candidate?: number;
}

/**
 * The contract to create when the vendor has none and a decision writes a contract field
 * (the "create it" offered at the button): a start date, and a reference (else one is made
 * from the title of the document the value comes from, unique in the organization).
 */
export interface NewContract {
  startDate: string;
  reference?: string;
}

type Deps = {
  repo: ProfileDraftsRepository;
  workspaces: Pick<WorkspacesService, 'get' | 'applyProfileValues'>;
  contracts: Pick<ContractsService, 'freeReference' | 'assertFits'>;
  retrieval: Pick<RetrievalService, 'search'>;
  /** The stored passages after one in its document (a subprocessor table over many passages); absent: retrieved passages only. */
  chunks?: Pick<RagRepository, 'chunksAfter' | 'openingChunks'>;
  /** With ANTHROPIC_API_KEY: Claude reads the same passages (src/compliance/drafting/model.ts). */
  model?: ModelExtractor | null;
  /** Absent: the draft runs in this process right after the request (tools). */
  jobs?: DraftJobs;
  notifications?: Pick<NotificationsService, 'notifyQuietly'>;
  log?: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
};

const draftNotFound = () => notFound('Profile draft not found', 'PROFILE_DRAFT_NOT_FOUND');

/** Where a field's accepted value goes in the profile. */
export const profilePath = (field: DraftField) => (FIELD_SPECS[field].target === 'contract' ? `contracts.0.${field}` : field);

const schemaOf = (field: DraftField) =>
  FIELD_SPECS[field].target === 'contract'
    ? (ContractSchema.properties as Record<string, unknown>)[field]
    : (PROFILE_FIELD_SCHEMAS as Record<string, unknown>)[field];

const FORM_HINT: Record<string, string> = {
  text: 'non-empty text',
  date: 'a date YYYY-MM-DD',
  dateOrIndefinite: 'a date YYYY-MM-DD, or null for an indefinite contract',
  days: 'a whole number of days (0-3650)',
  country: 'an ISO 3166-1 alpha-2 country code',
  countries: 'a list of ISO 3166-1 alpha-2 country codes',
  serviceType: 'an EBA ICT service type S01-S19',
  boolean: 'true or false',
  subcontractors: 'a list of { name, role?, country? }',
};

/** Problems of a value for a field (empty when it fits the field and the code lists). */
export function checkFieldValue(field: DraftField, value: unknown, at: string): string[] {
  const hint = FORM_HINT[FIELD_SPECS[field].form];
  const schema = schemaOf(field);
  if (value === undefined || !schema || !Value.Check(schema as never, value)) return [`${at}: not a valid ${field} (${hint})`];
  const codes =
    FIELD_SPECS[field].form === 'country'
      ? [value]
      : FIELD_SPECS[field].form === 'countries'
        ? (value as string[])
        : FIELD_SPECS[field].form === 'subcontractors'
          ? (value as { country?: string }[]).map((s) => s.country).filter(Boolean)
          : [];
  const bad = codes.filter((c) => !isCountryCode(String(c)));
  return bad.length ? [`${at}: ${bad.join(', ')} is not an ISO 3166-1 alpha-2 country code`] : [];
}

function shape(row: ProfileDraftRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    status: row.status,
    extractor: row.extractor,
    summary: row.summary ?? null,
    error: row.errorMessage,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}
const full = (row: ProfileDraftRow) => ({
  ...shape(row),
  fields: (row.fields ?? []).map((f) => ({ ...f, target: isDraftField(f.field) ? FIELD_SPECS[f.field].target : ('profile' as const) })),
});

/** A draft as listed (without its fields). */
export type ProfileDraftView = ReturnType<typeof shape>;
/** A draft with its fields, proposals and decisions. */
export type ProfileDraftDetail = ReturnType<typeof full>;

/** Drafting of a workspace's register fields from its documents, and the analyst's decisions on them. */
export interface ProfileDraftsService {
  /** Queues a draft of the workspace's register fields (one at a time per workspace: 409 while one runs). */
  start(scope: Scope): Promise<ProfileDraftView>;
  /** The workspace's drafts, newest first, paged (without their fields). */
  list(scope: Scope, q: PageRequest): Promise<{ drafts: ProfileDraftView[]; pagination: Pagination }>;
  /** One draft with its fields (404 PROFILE_DRAFT_NOT_FOUND). */
  get(scope: Scope, id: string): Promise<ProfileDraftDetail>;
  /** Accepts, edits or rejects fields of a completed draft; accepted and edited values go into the profile with their source, all or nothing. */
  decide(
    scope: Scope,
    id: string,
    decisions: DecisionInput[],
    contract?: NewContract,
  ): Promise<{ draft: ProfileDraftDetail; vendorProfile: VendorProfile; vendorProfileSources: Record<string, FieldSource> }>;
  /** Runs a draft now (the job handler; also used by the benchmark). */
  run(id: string): Promise<void>;
}

const quotesOf = (ev: Evidence[]) =>
  ev
    .map((e) => `${e.documentId}\u0000${e.quote}`)
    .sort()
    .join('\u0001');

/** The profile already holds this value from this passage: nothing new to decide. */
function isUnchanged(field: DraftField, proposal: { value?: DraftValue; evidence: Evidence[] }, source: FieldSource | undefined): boolean {
  if (!source || proposal.value === undefined) return false;
  return valueKey(field, proposal.value) === valueKey(field, source.value) && quotesOf(proposal.evidence) === quotesOf(source.evidence);
}

/**
 * Register drafting (docs/register-drafting.md): a job reads the workspace's documents
 * through retrieval and proposes a value per register field with its passage; the analyst
 * accepts, edits or rejects each, and accepted values go into the vendor profile with
 * their source.
 */
export function profileDraftsService(deps: Deps): ProfileDraftsService {
  const { repo } = deps;

  async function announce(row: ProfileDraftRow, vendor: string, outcome: { failed: true; error: string } | { failed: false; summary: DraftSummary }) {
    if (!deps.notifications) return;
    await deps.notifications.notifyQuietly({
      workspaceId: row.workspaceId,
      ...(row.createdBy ? { userIds: [row.createdBy] } : {}),
      type: outcome.failed ? 'profile_draft_failed' : 'profile_draft_completed',
      title: `${outcome.failed ? 'Register draft failed' : 'Register draft ready'}: ${vendor}`.slice(0, 200),
      body: outcome.failed
        ? outcome.error
        : `${outcome.summary.proposed} value(s) proposed, ${outcome.summary.conflicts} conflict(s), ${outcome.summary.notFound} not found, ${outcome.summary.unchanged} unchanged.`,
      data: outcome.failed ? { draftId: row.id, status: 'failed' } : { draftId: row.id, status: 'completed', ...outcome.summary },
    });
  }

  /** Drafts the fields of one draft row (the job). */
  async function run(id: string): Promise<void> {
    const row = await repo.byId(id);
    if (!row || !(await repo.markRunning(id))) return;
    const ws = await deps.workspaces.get(row.workspaceId);
    if (!ws) return;
    const profile = ws.vendorProfile as VendorProfile;
    const sources = (ws.vendorProfileSources ?? {}) as Record<string, FieldSource>;
    const seen = new Set<string>();
    /** A passage read (a retrieved one, or one after it in its document), counted once in the summary. */
    const passage = (
      id: string,
      documentId: string,
      dataSourceId: string | null,
      page: string | null,
      p: Omit<Passage, 'chunkId' | 'documentId' | 'dataSourceId' | 'page'>,
    ): Passage => {
      seen.add(id);
      return { chunkId: id, documentId, dataSourceId, title: p.title, section: p.section, page, url: p.url, content: p.content };
    };
    const search = async (query: string, limit = PASSAGES_PER_QUERY): Promise<Passage[]> =>
      (await deps.retrieval.search({ workspaceId: row.workspaceId, query, limit }))
        .filter((h) => h.workspaceId === row.workspaceId)
        .map((h) => passage(h.id, h.documentId, h.dataSourceId, h.page, h));
    // The stored passages read beside the retrieved ones: a table's next rows, each document's opening.
    const chunks = deps.chunks;
    const stored = (rows: ChunkRow[]) => rows.map((c) => passage(c.id, c.document_id, c.data_source_id, c.page === null ? null : String(c.page), c));
    const reads = chunks
      ? {
          following: async (p: Passage, limit: number) => stored(await chunks.chunksAfter(row.workspaceId, p.chunkId, limit)),
          openings: async (perDocument: number) => stored(await chunks.openingChunks(row.workspaceId, perDocument)),
        }
      : {};
    const vendorNames = vendorNamesOf(ws.workspaceName, profile.legalName);
    const proposals = deps.model
      ? await deps.model.draft({ vendorNames, search, ...reads })
      : { fields: await draftFields({ vendorNames, search, ...reads }), dropped: undefined };
    const fields: DraftFieldState[] = proposals.fields.map((p) => {
      const unchanged = p.status === 'proposed' && isUnchanged(p.field, p, sources[profilePath(p.field)]);
      return { ...p, status: unchanged ? 'unchanged' : p.status, decision: null };
    });
    const count = (s: DraftFieldState['status']) => fields.filter((f) => f.status === s).length;
    const summary: DraftSummary = {
      fields: fields.length,
      proposed: count('proposed'),
      conflicts: count('conflict'),
      notFound: count('not_found'),
      unchanged: count('unchanged'),
      passages: seen.size,
      extractor: row.extractor,
      ...(proposals.dropped !== undefined ? { dropped: proposals.dropped } : {}),
    };
    await repo.complete(id, { fields, summary });
    await announce(row, ws.workspaceName, { failed: false, summary });
  }

  async function runJob(data: { draftId: string }) {
    try {
      await run(data.draftId);
    } catch (err) {
      deps.log?.error({ err, draftId: data.draftId }, 'register draft failed');
      await repo.fail(data.draftId, `Drafting failed: ${(err as Error).message ?? String(err)}`.slice(0, 500));
      const row = await repo.byId(data.draftId);
      const ws = row && (await deps.workspaces.get(row.workspaceId));
      if (row) await announce(row, ws?.workspaceName ?? '', { failed: true, error: 'Drafting the register fields failed; see the draft for the reason.' });
    }
  }

  deps.jobs?.define<{ draftId: string }>(DRAFT_QUEUE, runJob, { retryLimit: 1 });

  return {
    async start(scope) {
      let active = await repo.active(scope);
      // A draft whose job died with its process (no update for longer than a job may run) no longer blocks.
      if (active && Date.now() - active.updatedAt.getTime() > STALE_AFTER_MS) {
        await repo.fail(active.id, 'Drafting did not finish (the job stopped); start a new draft');
        active = null;
      }
      if (active) throw conflict(`A draft of this vendor is already ${active.status} (${active.id}); wait for it to finish`, 'PROFILE_DRAFT_RUNNING');
      const row = await repo.insert({ workspaceId: scope.workspaceId, createdBy: scope.userId, extractor: deps.model ? deps.model.id : 'offline' });
      if (deps.jobs) await repo.setJob(row.id, await deps.jobs.send(DRAFT_QUEUE, { draftId: row.id }));
      else setImmediate(() => void runJob({ draftId: row.id }));
      return shape(row);
    },

    async list(scope, q) {
      const { rows, total } = await repo.list(scope, offsetOf(q), q.limit);
      return { drafts: rows.map((r) => shape(r)), pagination: pagination(q, total) };
    },

    async get(scope, id) {
      const row = await repo.get(scope, id);
      if (!row) throw draftNotFound();
      return full(row);
    },

    /**
     * Accept (the proposed value, or one candidate of a conflict), edit (a value of the
     * field's form) or reject; 400 naming the decision that does not fit.
     */
    async decide(scope, id, decisions, newContract) {
      const userId = scope.userId;
      const row = await repo.get(scope, id);
      if (!row) throw draftNotFound();
      if (row.status !== 'completed' || !row.fields)
        throw conflict(`The draft is ${row.status}; decisions are taken on a completed draft`, 'PROFILE_DRAFT_NOT_COMPLETE');
      const fields = structuredClone(row.fields);
      const problems: string[] = [];
      const at = new Date().toISOString();
      const writes: { field: DraftField; value: DraftValue; source: FieldSource | null }[] = [];
      const fieldsSeen = new Set<string>();
      decisions.forEach((d, i) => {
        const p = `decisions.${i}`;
        if (!isDraftField(d.field)) return void problems.push(`${p}.field: unknown field ${d.field} (one of ${DRAFT_FIELDS.join(', ')})`);
        if (fieldsSeen.has(d.field)) return void problems.push(`${p}.field: ${d.field} is decided twice`);
        fieldsSeen.add(d.field);
        const state = fields.find((f) => f.field === d.field);
        if (!state) return void problems.push(`${p}.field: ${d.field} is not part of this draft`);
        if (d.action === 'reject') {
          if (d.value !== undefined) return void problems.push(`${p}.value: a rejection takes no value`);
          state.decision = { action: 'rejected', by: userId, at };
          return;
        }
        let value: unknown;
        let evidence: Evidence[] = state.evidence;
        if (d.action === 'accept') {
          if (d.value !== undefined) return void problems.push(`${p}.value: accept takes the proposed value; use edit to change it`);
          if (state.status === 'conflict') {
            const c = d.candidate === undefined ? undefined : state.candidates?.[d.candidate];
            if (!c)
              return void problems.push(
                `${p}.candidate: the documents disagree on ${d.field}; choose a candidate (0-${(state.candidates?.length ?? 1) - 1}) or edit`,
              );
            value = c.value;
            evidence = c.evidence;
          } else if (state.status === 'proposed' || state.status === 'unchanged') value = state.value;
          else return void problems.push(`${p}.action: nothing was found for ${d.field}; use edit with a value`);
        } else {
          value = d.value;
          if (state.status === 'conflict' && d.candidate !== undefined) evidence = state.candidates?.[d.candidate]?.evidence ?? [];
        }
        const bad = checkFieldValue(d.field, value, d.action === 'edit' ? `${p}.value` : `${p}.field`);
        if (bad.length) return void problems.push(...bad);
        const action = d.action === 'accept' ? 'accepted' : 'edited';
        state.decision = { action, value: value as DraftValue, by: userId, at };
        writes.push({
          field: d.field,
          value: value as DraftValue,
          source: evidence.length ? { field: d.field, value: value as DraftValue, action, draftId: row.id, evidence, decidedBy: userId, decidedAt: at } : null,
        });
      });
      if (problems.length) throw badRequest(problems.join('; '), problems);

      let workspace: { vendorProfile: VendorProfile; vendorProfileSources: Record<string, FieldSource> } | null = null;
      const contractWrites = writes.filter((w) => FIELD_SPECS[w.field].target === 'contract');
      const noContract = () =>
        new AppError(
          409,
          'CONTRACT_REQUIRED',
          `${scope.workspaceName} has no contract yet: create it (a reference and a start date) to record ${contractWrites[0]!.field}`,
        );
      // A contract field needs a contract: the one offered at the button, or one from an accepted start date.
      // Without either, the write below (on the locked profile) decides: a contract created meanwhile is used.
      let created: Contract | null = null;
      if (contractWrites.length && !(await deps.workspaces.get(scope.workspaceId))?.vendorProfile.contracts?.length) {
        const start = contractWrites.find((w) => w.field === 'startDate');
        const startDate = newContract?.startDate ?? (start?.value as string | undefined);
        if (startDate) {
          const title = (start?.source ?? contractWrites.find((w) => w.source)?.source)?.evidence[0]?.title;
          const reference = newContract?.reference?.trim() || (await deps.contracts.freeReference(scope.orgId, title ?? `${scope.workspaceName} contract`));
          created = { id: randomUUID(), reference, startDate };
          await deps.contracts.assertFits(scope.orgId, created);
        }
      } else if (newContract) throw badRequest('contract: the vendor already has a contract; the values go into its first contract', ['contract: not needed']);
      if (writes.length) {
        workspace = await deps.workspaces.applyProfileValues(scope.workspaceId, (profile, sources) => {
          if (contractWrites.length && !profile.contracts?.length) {
            if (!created) throw noContract();
            profile.contracts = [created];
          }
          for (const w of writes) {
            if (FIELD_SPECS[w.field].target === 'contract') (profile.contracts![0] as Record<string, unknown>)[w.field] = w.value;
            else (profile as Record<string, unknown>)[w.field] = w.value;
            const path = profilePath(w.field);
            if (w.source) sources[path] = w.source;
            else delete sources[path];
          }
          return { profile, sources };
        });
      }
      await repo.recordDecisions(scope, id, new Map(fields.filter((f) => fieldsSeen.has(f.field)).map((f) => [f.field, f.decision])));
      const updated = (await repo.get(scope, id))!;
      const ws = workspace ?? (await deps.workspaces.get(scope.workspaceId));
      return {
        draft: full(updated),
        vendorProfile: (ws?.vendorProfile ?? {}) as VendorProfile,
        vendorProfileSources: (ws?.vendorProfileSources ?? {}) as Record<string, FieldSource>,
      };
    },

    run,
  };
}
