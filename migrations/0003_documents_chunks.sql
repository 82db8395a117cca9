CREATE TABLE "chunks" (
	"id" text PRIMARY KEY NOT NULL,
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
);
--> statement-breakpoint
CREATE TABLE "data_source_files" (
	"id" text PRIMARY KEY NOT NULL,
	"data_source_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"position" integer NOT NULL,
	"filename" text NOT NULL,
	"format" text NOT NULL,
	"mime_type" text NOT NULL,
	"declared_type" text,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"title" text,
	"url" text,
	"doc_date" timestamp with time zone,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_sources" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error_code" text,
	"error_message" text,
	"generation" integer DEFAULT 1 NOT NULL,
	"job_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"document_count" integer DEFAULT 0 NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"page_count" integer DEFAULT 0 NOT NULL,
	"total_bytes" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sync_requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_synced_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text,
	"data_source_id" text,
	"file_id" text,
	"corpus" text,
	"source_key" text,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"format" text NOT NULL,
	"page_count" integer DEFAULT 1 NOT NULL,
	"char_count" integer DEFAULT 0 NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"content_hash" text NOT NULL,
	"doc_date" timestamp with time zone NOT NULL,
	"embedding_model" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_data_source_id_data_sources_id_fk" FOREIGN KEY ("data_source_id") REFERENCES "public"."data_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_source_files" ADD CONSTRAINT "data_source_files_data_source_id_data_sources_id_fk" FOREIGN KEY ("data_source_id") REFERENCES "public"."data_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_source_files" ADD CONSTRAINT "data_source_files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_sources" ADD CONSTRAINT "data_sources_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_sources" ADD CONSTRAINT "data_sources_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_data_source_id_data_sources_id_fk" FOREIGN KEY ("data_source_id") REFERENCES "public"."data_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_id_data_source_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."data_source_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chunks_document_position_uidx" ON "chunks" USING btree ("document_id","chunk_index");--> statement-breakpoint
CREATE INDEX "chunks_embedding_hnsw_idx" ON "chunks" USING hnsw ("embedding" vector_cosine_ops) WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chunks_tsv_gin_idx" ON "chunks" USING gin ("tsv") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chunks_workspace_idx" ON "chunks" USING btree ("workspace_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chunks_data_source_idx" ON "chunks" USING btree ("data_source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "data_source_files_position_uidx" ON "data_source_files" USING btree ("data_source_id","position");--> statement-breakpoint
CREATE INDEX "data_sources_workspace_idx" ON "data_sources" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_file_uidx" ON "documents" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_corpus_key_uidx" ON "documents" USING btree ("corpus","source_key");--> statement-breakpoint
CREATE INDEX "documents_workspace_idx" ON "documents" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "documents_data_source_idx" ON "documents" USING btree ("data_source_id");