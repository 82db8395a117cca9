CREATE TABLE "assessment_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"assessment_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"position" integer NOT NULL,
	"filename" text NOT NULL,
	"format" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"title" text,
	"page_count" integer DEFAULT 1 NOT NULL,
	"char_count" integer NOT NULL,
	"blocks" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assessments" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"framework" text DEFAULT 'DORA' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"score" integer,
	"risk_rating" text,
	"summary" jsonb,
	"results" jsonb,
	"error_message" text,
	"job_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "assessment_documents" ADD CONSTRAINT "assessment_documents_assessment_id_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_documents" ADD CONSTRAINT "assessment_documents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_documents_assessment_idx" ON "assessment_documents" USING btree ("assessment_id","position");--> statement-breakpoint
CREATE INDEX "assessments_workspace_idx" ON "assessments" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "assessments_latest_complete_idx" ON "assessments" USING btree ("workspace_id","status","completed_at");