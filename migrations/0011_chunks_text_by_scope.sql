-- btree_gin: GIN operator classes for ordinary types, so that one GIN index holds a chunk's workspace id
-- beside its text postings (a trusted contrib extension; PGlite loads it as @electric-sql/pglite/contrib/btree_gin).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "chunks_tsv_gin_idx";--> statement-breakpoint
CREATE INDEX "chunks_workspace_tsv_gin_idx" ON "chunks" USING gin ("workspace_id","tsv") WHERE "deleted_at" IS NULL AND "workspace_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "chunks_corpus_tsv_gin_idx" ON "chunks" USING gin ("tsv") WHERE "deleted_at" IS NULL AND "workspace_id" IS NULL;--> statement-breakpoint
-- Embeddings stored in the row, not in TOAST: an exact kNN over a workspace's chunks then reads
-- the heap pages only (docs/performance.md, "Retrieval"). Rows written before this migration keep
-- their out-of-line vectors until rewritten (re-ingestion, or VACUUM FULL chunks).
ALTER TABLE "chunks" ALTER COLUMN "embedding" SET STORAGE PLAIN;
