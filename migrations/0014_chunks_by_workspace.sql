-- Chunks hash-partitioned by workspace (docs/performance.md, "Retrieval"; docs/retrieval.md).
-- A workspace's chunks live in one of 16 partitions (the shared corpus, workspace_id NULL, in the
-- partition of remainder 0), each with its own GIN, HNSW and btree indexes. A retrieval names its
-- workspace, so it reads one partition: the full-text arm intersects the workspace's postings with a
-- concept's postings of that partition only (about 1/16 of the table), not of every workspace; a
-- large workspace's HNSW search walks a graph of its partition.
-- The keys of a partitioned table must hold the partition key, which is NULL for the corpus, so the
-- primary key on id becomes UNIQUE NULLS NOT DISTINCT (id, workspace_id) (PostgreSQL 15 or later):
-- an id is unique within its scope, and ids are random UUIDs; nothing references chunks by foreign key.
-- The rows are copied and every index is built again: give the index builds room (only what they
-- need is used; for the rest of the migration transaction).
SET LOCAL maintenance_work_mem = '512MB';--> statement-breakpoint
ALTER TABLE "chunks" RENAME TO "chunks_unpartitioned";--> statement-breakpoint
ALTER TABLE "chunks_unpartitioned" DROP CONSTRAINT "chunks_pkey";--> statement-breakpoint
DROP INDEX "chunks_document_position_uidx";--> statement-breakpoint
DROP INDEX "chunks_embedding_hnsw_idx";--> statement-breakpoint
DROP INDEX "chunks_workspace_tsv_gin_idx";--> statement-breakpoint
DROP INDEX "chunks_corpus_tsv_gin_idx";--> statement-breakpoint
DROP INDEX "chunks_workspace_idx";--> statement-breakpoint
DROP INDEX "chunks_data_source_idx";--> statement-breakpoint
CREATE TABLE "chunks" (
	"id" text NOT NULL,
	"workspace_id" text,
	"document_id" text NOT NULL,
	"data_source_id" text,
	"chunk_index" integer NOT NULL,
	"title" text NOT NULL,
	"section" text DEFAULT '' NOT NULL,
	"page" integer,
	"page_end" integer,
	"url" text NOT NULL,
	"content" text NOT NULL,
	"doc_date" timestamp with time zone NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, coalesce("title", '') || ' ' || coalesce("section", '')), 'A') || setweight(to_tsvector('english'::regconfig, "content"), 'B')) STORED NOT NULL,
	"embedding" vector(384) NOT NULL,
	"embedding_model" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
) PARTITION BY HASH ("workspace_id");--> statement-breakpoint
CREATE TABLE "chunks_p00" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 0);--> statement-breakpoint
CREATE TABLE "chunks_p01" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 1);--> statement-breakpoint
CREATE TABLE "chunks_p02" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 2);--> statement-breakpoint
CREATE TABLE "chunks_p03" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 3);--> statement-breakpoint
CREATE TABLE "chunks_p04" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 4);--> statement-breakpoint
CREATE TABLE "chunks_p05" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 5);--> statement-breakpoint
CREATE TABLE "chunks_p06" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 6);--> statement-breakpoint
CREATE TABLE "chunks_p07" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 7);--> statement-breakpoint
CREATE TABLE "chunks_p08" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 8);--> statement-breakpoint
CREATE TABLE "chunks_p09" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 9);--> statement-breakpoint
CREATE TABLE "chunks_p10" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 10);--> statement-breakpoint
CREATE TABLE "chunks_p11" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 11);--> statement-breakpoint
CREATE TABLE "chunks_p12" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 12);--> statement-breakpoint
CREATE TABLE "chunks_p13" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 13);--> statement-breakpoint
CREATE TABLE "chunks_p14" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 14);--> statement-breakpoint
CREATE TABLE "chunks_p15" PARTITION OF "chunks" FOR VALUES WITH (MODULUS 16, REMAINDER 15);--> statement-breakpoint
ALTER TABLE "chunks" ALTER COLUMN "embedding" SET STORAGE PLAIN;--> statement-breakpoint
INSERT INTO "chunks" ("id", "workspace_id", "document_id", "data_source_id", "chunk_index", "title", "section", "page", "page_end", "url", "content", "doc_date", "embedding", "embedding_model", "created_at", "deleted_at")
SELECT "id", "workspace_id", "document_id", "data_source_id", "chunk_index", "title", "section", "page", "page_end", "url", "content", "doc_date", "embedding", "embedding_model", "created_at", "deleted_at" FROM "chunks_unpartitioned";--> statement-breakpoint
DROP TABLE "chunks_unpartitioned";--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_id_workspace_unique" UNIQUE NULLS NOT DISTINCT ("id", "workspace_id");--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_document_position_uidx" UNIQUE NULLS NOT DISTINCT ("document_id", "chunk_index", "workspace_id");--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_data_source_id_data_sources_id_fk" FOREIGN KEY ("data_source_id") REFERENCES "public"."data_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chunks_embedding_hnsw_idx" ON "chunks" USING hnsw ("embedding" vector_cosine_ops) WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chunks_workspace_tsv_gin_idx" ON "chunks" USING gin ("workspace_id","tsv") WHERE "deleted_at" IS NULL AND "workspace_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "chunks_corpus_tsv_gin_idx" ON "chunks" USING gin ("tsv") WHERE "deleted_at" IS NULL AND "workspace_id" IS NULL;--> statement-breakpoint
CREATE INDEX "chunks_workspace_idx" ON "chunks" USING btree ("workspace_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chunks_data_source_idx" ON "chunks" USING btree ("data_source_id");
