import { and, asc, eq, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chunks, documentMetadata, documents } from '../../db/schema/documents.js';
import { workspaces } from '../../db/schema/workspaces.js';
import type { DocumentMetadataValues } from '../../domain/documentMetadata.js';

export type DocumentMetadataRow = typeof documentMetadata.$inferSelect;
/** A document of a vendor with its metadata (null before the first proposal). */
export interface DocumentWithMetadata {
  documentId: string;
  title: string;
  metadata: DocumentMetadataRow | null;
}
export interface MetadataFilters {
  type?: string;
  /** Expiry before `today`. */
  expired?: boolean;
  /** Expiry between today and today + N days. */
  expiringBy?: string;
  today: string;
}
/** The API field of each column (the `edited_fields` entries). */
const FIELD_COLUMNS = { type: 'docType', effectiveDate: 'effectiveDate', expiryDate: 'expiryDate', version: 'version' } as const;
export type MetadataField = keyof typeof FIELD_COLUMNS;

/** All SQL of document metadata (docs/inventory.md, "Document metadata"). */
export function documentMetadataRepository(db: Db) {
  const live = (workspaceId: string) => and(eq(documents.workspaceId, workspaceId), isNull(documents.deletedAt));
  return {
    /** Live documents of a workspace with the opening of their text (the first chunks), for proposals. */
    async openings(workspaceId: string, maxChunks = 12): Promise<{ documentId: string; title: string; text: string }[]> {
      const docs = await db.select({ id: documents.id, title: documents.title }).from(documents).where(live(workspaceId));
      const out: { documentId: string; title: string; text: string }[] = [];
      for (const d of docs) {
        const rows = await db
          .select({ content: chunks.content })
          .from(chunks)
          .where(and(eq(chunks.documentId, d.id), eq(chunks.workspaceId, workspaceId), isNull(chunks.deletedAt)))
          .orderBy(asc(chunks.chunkIndex))
          .limit(maxChunks);
        out.push({ documentId: d.id, title: d.title, text: rows.map((r) => r.content).join('\n') });
      }
      return out;
    },
    /** Writes a proposal: every field not edited by an analyst takes the proposed value. */
    async propose(workspaceId: string, documentId: string, v: DocumentMetadataValues): Promise<void> {
      const keep = (field: MetadataField, col: SQL) =>
        sql`CASE WHEN jsonb_exists(${documentMetadata.editedFields}, ${field}) THEN ${col} ELSE excluded.${sql.identifier(colName(field))} END`;
      await db
        .insert(documentMetadata)
        .values({ documentId, workspaceId, docType: v.type, effectiveDate: v.effectiveDate, expiryDate: v.expiryDate, version: v.version })
        .onConflictDoUpdate({
          target: documentMetadata.documentId,
          set: {
            docType: keep('type', sql`${documentMetadata.docType}`),
            effectiveDate: keep('effectiveDate', sql`${documentMetadata.effectiveDate}`),
            expiryDate: keep('expiryDate', sql`${documentMetadata.expiryDate}`),
            version: keep('version', sql`${documentMetadata.version}`),
            updatedAt: new Date(),
          },
        });
    },
    /** Live documents of a workspace with their metadata, by title; filtered by type and expiry. */
    async list(workspaceId: string, f: MetadataFilters, page: { limit: number; offset: number }): Promise<{ rows: DocumentWithMetadata[]; total: number }> {
      const conds: (SQL | undefined)[] = [live(workspaceId), isNotNull(documents.workspaceId)];
      if (f.type) conds.push(eq(documentMetadata.docType, f.type));
      if (f.expired === true) conds.push(sql`${documentMetadata.expiryDate} < ${f.today}`);
      if (f.expired === false) conds.push(or(isNull(documentMetadata.expiryDate), sql`${documentMetadata.expiryDate} >= ${f.today}`));
      if (f.expiringBy) conds.push(sql`${documentMetadata.expiryDate} >= ${f.today}`, lte(documentMetadata.expiryDate, f.expiringBy));
      const rows = await db
        .select({ documentId: documents.id, title: documents.title, metadata: documentMetadata, total: sql<number>`count(*) OVER ()` })
        .from(documents)
        .leftJoin(documentMetadata, eq(documentMetadata.documentId, documents.id))
        .where(and(...conds))
        .orderBy(asc(documents.title), asc(documents.id))
        .limit(page.limit)
        .offset(page.offset);
      let total = rows.length ? Number(rows[0]!.total) : 0;
      if (!rows.length && page.offset > 0) {
        const [n] = await db
          .select({ n: sql<number>`count(*)` })
          .from(documents)
          .leftJoin(documentMetadata, eq(documentMetadata.documentId, documents.id))
          .where(and(...conds));
        total = Number(n?.n ?? 0);
      }
      return { rows: rows.map((r) => ({ documentId: r.documentId, title: r.title, metadata: r.metadata?.documentId ? r.metadata : null })), total };
    },
    /** A live document of the workspace with its metadata, or null. */
    async get(workspaceId: string, documentId: string): Promise<DocumentWithMetadata | null> {
      const [r] = await db
        .select({ documentId: documents.id, title: documents.title, metadata: documentMetadata })
        .from(documents)
        .leftJoin(documentMetadata, eq(documentMetadata.documentId, documents.id))
        .where(and(live(workspaceId), eq(documents.id, documentId)));
      return r ? { documentId: r.documentId, title: r.title, metadata: r.metadata?.documentId ? r.metadata : null } : null;
    },
    /** An analyst's edit: the fields given are set and marked edited. */
    async edit(workspaceId: string, documentId: string, patch: Partial<DocumentMetadataValues>, userId: string): Promise<void> {
      const set: Partial<typeof documentMetadata.$inferInsert> = {};
      const fields = Object.keys(patch) as MetadataField[];
      if ('type' in patch) set.docType = patch.type ?? null;
      if ('effectiveDate' in patch) set.effectiveDate = patch.effectiveDate ?? null;
      if ('expiryDate' in patch) set.expiryDate = patch.expiryDate ?? null;
      if ('version' in patch) set.version = patch.version ?? null;
      await db
        .insert(documentMetadata)
        .values({ documentId, workspaceId, ...set, editedFields: fields, updatedBy: userId })
        .onConflictDoUpdate({
          target: documentMetadata.documentId,
          set: {
            ...set,
            editedFields: sql`(SELECT coalesce(jsonb_agg(DISTINCT f), '[]'::jsonb) FROM jsonb_array_elements_text(${documentMetadata.editedFields} || ${JSON.stringify(fields)}::jsonb) f)`,
            updatedBy: userId,
            updatedAt: new Date(),
          },
        });
    },
    /**
     * Documents expiring on or before `by` whose owner was not yet told about that expiry, with
     * the vendor, its vendor owner and its workspace owner.
     */
    async dueForNotice(by: string) {
      return db
        .select({
          documentId: documentMetadata.documentId,
          workspaceId: documentMetadata.workspaceId,
          expiryDate: documentMetadata.expiryDate,
          docType: documentMetadata.docType,
          title: documents.title,
          workspaceName: workspaces.name,
          workspaceSlug: workspaces.slug,
          vendorOwnerId: workspaces.vendorOwnerId,
          ownerId: workspaces.ownerId,
        })
        .from(documentMetadata)
        .innerJoin(documents, and(eq(documents.id, documentMetadata.documentId), isNull(documents.deletedAt)))
        .innerJoin(workspaces, eq(workspaces.id, documentMetadata.workspaceId))
        .where(
          and(
            isNotNull(documentMetadata.expiryDate),
            lte(documentMetadata.expiryDate, by),
            sql`${documentMetadata.expiryNotifiedFor} IS DISTINCT FROM ${documentMetadata.expiryDate}`,
          ),
        )
        .orderBy(asc(documentMetadata.expiryDate))
        .limit(500);
    },
    /** Claims the notice of one expiry (false: another instance claimed it, or the date changed). */
    async claimNotice(documentId: string, expiryDate: string): Promise<boolean> {
      const rows = await db
        .update(documentMetadata)
        .set({ expiryNotifiedFor: expiryDate })
        .where(
          and(
            eq(documentMetadata.documentId, documentId),
            eq(documentMetadata.expiryDate, expiryDate),
            sql`${documentMetadata.expiryNotifiedFor} IS DISTINCT FROM ${expiryDate}`,
          ),
        )
        .returning({ id: documentMetadata.documentId });
      return rows.length === 1;
    },
  };
}
const colName = (f: MetadataField) => ({ type: 'doc_type', effectiveDate: 'effective_date', expiryDate: 'expiry_date', version: 'version' })[f];
export type DocumentMetadataRepository = ReturnType<typeof documentMetadataRepository>;
