ALTER TABLE "data_sources" ADD COLUMN "processing_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_sources" ADD COLUMN "files_done" integer DEFAULT 0 NOT NULL;