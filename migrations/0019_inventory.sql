CREATE TABLE "document_metadata" (
	"document_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"doc_type" text,
	"effective_date" text,
	"expiry_date" text,
	"version" text,
	"edited_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expiry_notified_for" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "vendor_owner_id" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "lifecycle" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "criticality_tier" text GENERATED ALWAYS AS (vendor_profile->>'criticalityTier') STORED;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "next_review_date" text GENERATED ALWAYS AS (vendor_profile->>'nextReviewDate') STORED;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "contract_end" text;--> statement-breakpoint
ALTER TABLE "document_metadata" ADD CONSTRAINT "document_metadata_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_metadata" ADD CONSTRAINT "document_metadata_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_metadata" ADD CONSTRAINT "document_metadata_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_metadata_workspace_type_idx" ON "document_metadata" USING btree ("workspace_id","doc_type");--> statement-breakpoint
CREATE INDEX "document_metadata_expiry_idx" ON "document_metadata" USING btree ("expiry_date") WHERE "document_metadata"."expiry_date" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_vendor_owner_id_users_id_fk" FOREIGN KEY ("vendor_owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspaces_org_tier_idx" ON "workspaces" USING btree ("org_id","criticality_tier");--> statement-breakpoint
CREATE INDEX "workspaces_org_next_review_idx" ON "workspaces" USING btree ("org_id","next_review_date");--> statement-breakpoint
CREATE INDEX "workspaces_org_contract_end_idx" ON "workspaces" USING btree ("org_id","contract_end");--> statement-breakpoint
CREATE INDEX "workspaces_org_lifecycle_idx" ON "workspaces" USING btree ("org_id","lifecycle");--> statement-breakpoint
CREATE INDEX "workspaces_vendor_owner_idx" ON "workspaces" USING btree ("vendor_owner_id");--> statement-breakpoint
CREATE INDEX "questionnaires_outstanding_idx" ON "questionnaires" USING btree ("workspace_id","due_date") WHERE "questionnaires"."status" IN ('sent', 'in_progress', 'submitted');--> statement-breakpoint
CREATE INDEX "assessments_signed_off_idx" ON "assessments" USING btree ("workspace_id","signed_off_at") WHERE "assessments"."signed_off_at" IS NOT NULL;--> statement-breakpoint
UPDATE "workspaces" SET "contract_end" = (
  SELECT max(c->>'endDate') FROM jsonb_array_elements(CASE WHEN jsonb_typeof("vendor_profile"->'contracts') = 'array' THEN "vendor_profile"->'contracts' ELSE '[]'::jsonb END) c
  WHERE jsonb_typeof(c->'endDate') = 'string'
);
