import { queryRows, sql, type Db } from '../../db/client.js';

/** A stored passage as the answers' additions read it (src/modules/rag/judgement.ts). */
export interface ChunkRow {
  id: string;
  document_id: string;
  data_source_id: string | null;
  workspace_id: string | null;
  chunk_index: number;
  title: string;
  section: string;
  content: string;
  url: string;
  page: number | null;
}

const COLUMNS = sql`c.id, c.document_id, c.data_source_id, c.workspace_id, c.chunk_index, c.title, c.section, c.content, c.url, c.page`;

/** The SQL of the passages an answer adds after the retrieved ones (docs/rag.md). */
export interface RagRepository {
  /** A version stamp of a workspace's live documents (their count and last change); `null`: the DORA corpus. */
  documentsStamp(workspaceId: string | null): Promise<string>;
  /** A version stamp of a workspace's live documents and the corpus's, document by document. */
  documentsAndCorpusStamp(workspaceId: string): Promise<string>;
  /** The workspace's live passages, by document and position. */
  workspaceChunks(workspaceId: string): Promise<ChunkRow[]>;
  /** The live passages of a DORA article, by position. */
  articleChunks(article: number): Promise<ChunkRow[]>;
  /** The live passages after one in its document (of one workspace), in order, at most `limit`. */
  chunksAfter(workspaceId: string, chunkId: string, limit: number): Promise<ChunkRow[]>;
  /** The first `perDocument` live passages of each of the workspace's live documents, by document and position. */
  openingChunks(workspaceId: string, perDocument: number): Promise<ChunkRow[]>;
}

export function ragRepository(db: Db): RagRepository {
  return {
    async documentsStamp(workspaceId) {
      const scope = workspaceId === null ? sql`d.workspace_id IS NULL` : sql`d.workspace_id = ${workspaceId}`;
      const [row] = await queryRows<{ key: string | null }>(
        db,
        sql`SELECT count(*)::text || ':' || coalesce(max(d.updated_at)::text, '') AS key FROM documents d WHERE ${scope} AND d.deleted_at IS NULL`,
      );
      return row?.key ?? '';
    },
    async documentsAndCorpusStamp(workspaceId) {
      const [row] = await queryRows<{ key: string | null }>(
        db,
        sql`SELECT string_agg(d.id || ':' || d.updated_at::text, ',' ORDER BY d.id) AS key FROM documents d
            WHERE (d.workspace_id = ${workspaceId} OR d.workspace_id IS NULL) AND d.deleted_at IS NULL`,
      );
      return row?.key ?? '';
    },
    workspaceChunks(workspaceId) {
      return queryRows<ChunkRow>(
        db,
        sql`SELECT ${COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
            WHERE c.workspace_id = ${workspaceId} AND c.deleted_at IS NULL AND d.deleted_at IS NULL
            ORDER BY c.document_id, c.chunk_index`,
      );
    },
    chunksAfter(workspaceId, chunkId, limit) {
      return queryRows<ChunkRow>(
        db,
        sql`SELECT ${COLUMNS} FROM chunks c JOIN chunks s ON s.id = ${chunkId} AND s.document_id = c.document_id
            JOIN documents d ON d.id = c.document_id AND d.deleted_at IS NULL
            WHERE c.workspace_id = ${workspaceId} AND c.deleted_at IS NULL AND c.chunk_index > s.chunk_index
            ORDER BY c.chunk_index LIMIT ${limit}`,
      );
    },
    openingChunks(workspaceId, perDocument) {
      return queryRows<ChunkRow>(
        db,
        sql`SELECT ${COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id AND d.deleted_at IS NULL
            WHERE c.workspace_id = ${workspaceId} AND c.deleted_at IS NULL AND c.chunk_index < ${perDocument}
            ORDER BY c.document_id, c.chunk_index`,
      );
    },
    articleChunks(article) {
      return queryRows<ChunkRow>(
        db,
        sql`SELECT ${COLUMNS} FROM chunks c WHERE c.workspace_id IS NULL AND c.deleted_at IS NULL AND c.title LIKE ${`DORA Article ${article}:%`}
            ORDER BY c.chunk_index`,
      );
    },
  };
}
