import type { Scope } from '../../domain/scope.js';
import { proposeDocumentMetadata, type DocumentMetadataValues, type DocumentType } from '../../domain/documentMetadata.js';
import { addDays } from '../../domain/inventory.js';
import { offsetOf, pagination, type PageRequest, type Pagination } from '../../domain/paging.js';
import { today } from '../../domain/vendorProfile.js';
import type { Log } from '../../domain/log.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { Mailer } from '../../lib/mailer.js';
import type { NotificationsService } from '../notifications/service.js';
import type { DocumentMetadataRepository, DocumentWithMetadata } from './repository.js';

/** Days before its expiry a document's owner is told (docs/inventory.md). */
export const EXPIRY_NOTICE_DAYS = 30;

export interface DocumentMetadataView {
  documentId: string;
  title: string;
  type: DocumentType | null;
  effectiveDate: string | null;
  expiryDate: string | null;
  version: string | null;
  /** Past its expiry date. */
  expired: boolean;
  /** Fields an analyst set (a later sync keeps them); the others are proposed from the text. */
  editedFields: string[];
}

function view(d: DocumentWithMetadata, now: string): DocumentMetadataView {
  const m = d.metadata;
  return {
    documentId: d.documentId,
    title: d.title,
    type: (m?.docType as DocumentType | null) ?? null,
    effectiveDate: m?.effectiveDate ?? null,
    expiryDate: m?.expiryDate ?? null,
    version: m?.version ?? null,
    expired: !!m?.expiryDate && m.expiryDate < now,
    editedFields: m?.editedFields ?? [],
  };
}

/** Document metadata: proposals after ingestion, the analyst's edits, and the expiry notices. */
export interface DocumentMetadataService {
  /** Proposes the metadata of every live document of a workspace from its text (after an ingestion). */
  proposeFor(workspaceId: string): Promise<number>;
  /** The workspace's documents with their metadata; `type`, `expired`, `expiringWithinDays` filter. */
  list(
    scope: Scope,
    q: PageRequest & { type?: DocumentType; expired?: boolean; expiringWithinDays?: number },
  ): Promise<{ documents: DocumentMetadataView[]; pagination: Pagination }>;
  /** Sets fields of one document's metadata (null clears one); 404 for a document not in the workspace. */
  update(scope: Scope, documentId: string, patch: Partial<DocumentMetadataValues>): Promise<DocumentMetadataView>;
  /** Tells the owner of each document expiring within EXPIRY_NOTICE_DAYS (or expired) once per expiry date: a notification and an e-mail. */
  notifyExpiring(on?: string): Promise<{ notified: number }>;
  /** Runs notifyExpiring every `intervalSec`. */
  start(intervalSec: number): void;
  stop(): Promise<void>;
}

export function documentMetadataService(deps: {
  repo: DocumentMetadataRepository;
  notifications?: Pick<NotificationsService, 'notifyQuietly'>;
  mailer?: Mailer;
  /** Ids of everyone with access to a workspace. */
  members(workspaceId: string): Promise<string[]>;
  users: { usersByIds(ids: string[]): Promise<Map<string, { name: string; email: string }>> };
  publicUrl: string;
  log?: Log;
}): DocumentMetadataService {
  const { repo } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  async function notifyExpiring(on = today()) {
    let notified = 0;
    for (const d of await repo.dueForNotice(addDays(on, EXPIRY_NOTICE_DAYS))) {
      if (!d.expiryDate || !(await repo.claimNotice(d.documentId, d.expiryDate))) continue;
      // The vendor owner while they still have access to the vendor, else the workspace owner.
      const withAccess = new Set(await deps.members(d.workspaceId));
      const to = (d.vendorOwnerId && withAccess.has(d.vendorOwnerId) ? d.vendorOwnerId : d.ownerId) as string;
      const user = (await deps.users.usersByIds([to])).get(to);
      if (!user) continue;
      const lapsed = d.expiryDate < on;
      const title = `${lapsed ? 'Document expired' : 'Document expires soon'}: ${d.title} (${d.workspaceName})`.slice(0, 200);
      const body = lapsed
        ? `${d.title} of ${d.workspaceName} expired on ${d.expiryDate}. Ask the vendor for the current one.`
        : `${d.title} of ${d.workspaceName} expires on ${d.expiryDate}. Ask the vendor for the renewed one before it lapses.`;
      await deps.notifications?.notifyQuietly({
        workspaceId: d.workspaceId,
        userIds: [to],
        type: 'document_expiring',
        title,
        body,
        data: { documentId: d.documentId, expiryDate: d.expiryDate, workspaceSlug: d.workspaceSlug },
      });
      try {
        await deps.mailer?.send({
          to: user.email,
          subject: title,
          text: `Hello ${user.name},\n\n${body}\n\n${deps.publicUrl}/vendors/${encodeURIComponent(d.workspaceSlug)}/documents\n`,
        });
      } catch (err) {
        deps.log?.warn({ err, documentId: d.documentId }, 'document expiry e-mail not sent');
      }
      notified += 1;
    }
    return { notified };
  }

  return {
    async proposeFor(workspaceId) {
      const docs = await repo.openings(workspaceId);
      for (const d of docs) await repo.propose(workspaceId, d.documentId, proposeDocumentMetadata(d.title, d.text));
      return docs.length;
    },

    async list(scope, q) {
      const now = today();
      const { rows, total } = await repo.list(
        scope.workspaceId,
        {
          type: q.type,
          expired: q.expired,
          expiringBy: q.expiringWithinDays === undefined ? undefined : addDays(now, q.expiringWithinDays),
          today: now,
        },
        { limit: q.limit, offset: offsetOf(q) },
      );
      return { documents: rows.map((r) => view(r, now)), pagination: pagination(q, total) };
    },

    async update(scope, documentId, patch) {
      if (!(await repo.get(scope.workspaceId, documentId))) throw notFound('Document not found', 'DOCUMENT_NOT_FOUND');
      const eff = 'effectiveDate' in patch ? patch.effectiveDate : undefined;
      const exp = 'expiryDate' in patch ? patch.expiryDate : undefined;
      const current = (await repo.get(scope.workspaceId, documentId))!.metadata;
      const effective = eff !== undefined ? eff : (current?.effectiveDate ?? null);
      const expiry = exp !== undefined ? exp : (current?.expiryDate ?? null);
      if (effective && expiry && expiry < effective)
        throw badRequest('expiryDate: must not be before effectiveDate', ['expiryDate: must not be before effectiveDate']);
      await repo.edit(scope.workspaceId, documentId, patch, scope.userId);
      return view((await repo.get(scope.workspaceId, documentId))!, today());
    },

    notifyExpiring,

    start(intervalSec) {
      if (timer || intervalSec <= 0) return;
      timer = setInterval(() => {
        running ??= notifyExpiring()
          .catch((err) => deps.log?.error({ err }, 'document expiry notices failed'))
          .finally(() => {
            running = null;
          });
      }, intervalSec * 1000);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
