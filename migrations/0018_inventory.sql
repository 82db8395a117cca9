ALTER TABLE "workspaces" ADD COLUMN "vendor_owner_id" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "lifecycle" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "criticality_tier" text GENERATED ALWAYS AS (vendor_profile->>'criticalityTier') STORED;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "next_review_date" text GENERATED ALWAYS AS (vendor_profile->>'nextReviewDate') STORED;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "contract_end" text;--> statement-breakpoint
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
