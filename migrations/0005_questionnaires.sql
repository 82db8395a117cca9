CREATE TABLE "questionnaire_answers" (
	"questionnaire_id" text NOT NULL,
	"question_id" text NOT NULL,
	"value" jsonb,
	"comment" text,
	"answered_at" timestamp with time zone,
	"suggestion" jsonb,
	"override_value" jsonb,
	"override_score" double precision,
	"reviewer_note" text,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questionnaire_answers_questionnaire_id_question_id_pk" PRIMARY KEY("questionnaire_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "questionnaires" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"template_id" text,
	"template_version" text,
	"sections" jsonb NOT NULL,
	"questions" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"vendor_contact_email" text,
	"vendor_contact_name" text,
	"due_date" date,
	"share_suggestions" boolean DEFAULT false NOT NULL,
	"reviewer_notes" text,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"send_count" integer DEFAULT 0 NOT NULL,
	"first_opened_at" timestamp with time zone,
	"last_vendor_activity_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"completed_by" text,
	"score" double precision,
	"section_scores" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "questionnaire_answers" ADD CONSTRAINT "questionnaire_answers_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_answers" ADD CONSTRAINT "questionnaire_answers_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questionnaires_workspace_idx" ON "questionnaires" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "questionnaires_complete_idx" ON "questionnaires" USING btree ("workspace_id","completed_at") WHERE "questionnaires"."status" = 'complete';--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaires_token_uidx" ON "questionnaires" USING btree ("token_hash");