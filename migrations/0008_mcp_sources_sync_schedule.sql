CREATE TABLE "mcp_resources" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"uri" text NOT NULL,
	"name" text NOT NULL,
	"title" text,
	"mime_type" text,
	"version" text,
	"content_hash" text,
	"document_id" text,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"char_count" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"indexed_at" timestamp with time zone,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mcp_sources" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"transport" text NOT NULL,
	"url" text,
	"command" text,
	"args" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"secrets" text,
	"header_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"env_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"server_info" jsonb,
	"config_version" integer DEFAULT 1 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_sync_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"job_id" text,
	"requested_by" text,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"duration_ms" integer,
	"resources_listed" integer DEFAULT 0 NOT NULL,
	"resources_added" integer DEFAULT 0 NOT NULL,
	"resources_updated" integer DEFAULT 0 NOT NULL,
	"resources_unchanged" integer DEFAULT 0 NOT NULL,
	"resources_removed" integer DEFAULT 0 NOT NULL,
	"resources_failed" integer DEFAULT 0 NOT NULL,
	"chunks_indexed" integer DEFAULT 0 NOT NULL,
	"error" text,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_sync_schedule_state" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_run_sources" integer DEFAULT 0 NOT NULL,
	"last_run_errors" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "mcp_source_id" text;--> statement-breakpoint
ALTER TABLE "mcp_resources" ADD CONSTRAINT "mcp_resources_source_id_mcp_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."mcp_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_resources" ADD CONSTRAINT "mcp_resources_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_sources" ADD CONSTRAINT "mcp_sources_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_sources" ADD CONSTRAINT "mcp_sources_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_sync_runs" ADD CONSTRAINT "mcp_sync_runs_source_id_mcp_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."mcp_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_sync_runs" ADD CONSTRAINT "mcp_sync_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_sync_runs" ADD CONSTRAINT "mcp_sync_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_sync_schedule_state" ADD CONSTRAINT "workspace_sync_schedule_state_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_resources_source_uri_uidx" ON "mcp_resources" USING btree ("source_id","uri");--> statement-breakpoint
CREATE INDEX "mcp_sources_workspace_idx" ON "mcp_sources" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "mcp_sync_runs_source_idx" ON "mcp_sync_runs" USING btree ("source_id","queued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_sync_runs_one_queued_uidx" ON "mcp_sync_runs" USING btree ("source_id") WHERE "status" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_sync_runs_one_running_uidx" ON "mcp_sync_runs" USING btree ("source_id") WHERE "status" = 'running';--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_mcp_source_id_mcp_sources_id_fk" FOREIGN KEY ("mcp_source_id") REFERENCES "public"."mcp_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_mcp_key_uidx" ON "documents" USING btree ("mcp_source_id","source_key");