CREATE TABLE "provider_aliases" (
	"org_id" text NOT NULL,
	"name_key" text NOT NULL,
	"name" text NOT NULL,
	"action" text NOT NULL,
	"provider_key" text NOT NULL,
	"provider_name" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_aliases_org_id_name_key_pk" PRIMARY KEY("org_id","name_key")
);
--> statement-breakpoint
ALTER TABLE "provider_aliases" ADD CONSTRAINT "provider_aliases_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_aliases" ADD CONSTRAINT "provider_aliases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_aliases_provider_idx" ON "provider_aliases" USING btree ("org_id","provider_key");