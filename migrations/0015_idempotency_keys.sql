CREATE TABLE "idempotency_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"state" text DEFAULT 'in_flight' NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"committed_at" timestamp with time zone,
	"status_code" integer,
	"content_type" text,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_owner_key_idx" ON "idempotency_keys" USING btree ("owner","key");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");