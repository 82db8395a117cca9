-- What GET /workspaces shows of a workspace's sources, kept per workspace instead of counted on every
-- read (docs/performance.md, "Request path"; docs/sync-status.md, "The list's counts"). Maintained by
-- triggers on the source tables, so that every write path (repositories, cascades, jobs) keeps it
-- right on PostgreSQL and PGlite alike. The triggers are deferred constraint triggers: they run at
-- commit, so a transaction takes the workspace's row lock last and holds it only while committing
-- (no lock-order cycle with the source rows it locked earlier).
--  - data sources (live rows): ingestions queued or running, last ingestion failed, newest successful
--    sync: recomputed from data_sources for the workspace after the row is locked;
--  - MCP sources: sources with a run queued or running, enabled sources whose latest finished run
--    failed, newest end of a successful or partial run: recomputed likewise;
--  - documents: live indexed documents (data-source files and MCP resources): +1 / -1 per change.
CREATE TABLE "workspace_sync_counts" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"ds_syncing" integer DEFAULT 0 NOT NULL,
	"ds_failed" integer DEFAULT 0 NOT NULL,
	"ds_last_synced_at" timestamp with time zone,
	"mcp_syncing" integer DEFAULT 0 NOT NULL,
	"mcp_failed" integer DEFAULT 0 NOT NULL,
	"mcp_last_synced_at" timestamp with time zone,
	"documents" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
ALTER TABLE "workspace_sync_counts" ADD CONSTRAINT "workspace_sync_counts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION "workspace_sync_counts_ds"(ws text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	-- Lock first: the recount below then runs on a snapshot taken after any concurrent writer committed.
	PERFORM 1 FROM workspace_sync_counts WHERE workspace_id = ws FOR UPDATE;
	IF NOT FOUND THEN RETURN; END IF;
	UPDATE workspace_sync_counts c SET
		ds_syncing = s.syncing, ds_failed = s.failed, ds_last_synced_at = s.last
	FROM (SELECT count(*) FILTER (WHERE d.status IN ('pending', 'processing'))::int AS syncing,
	             count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
	             max(d.last_synced_at) AS last
	      FROM data_sources d WHERE d.workspace_id = ws AND d.deleted_at IS NULL) s
	WHERE c.workspace_id = ws;
END $$;--> statement-breakpoint
CREATE FUNCTION "workspace_sync_counts_mcp"(ws text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM 1 FROM workspace_sync_counts WHERE workspace_id = ws FOR UPDATE;
	IF NOT FOUND THEN RETURN; END IF;
	UPDATE workspace_sync_counts c SET
		mcp_syncing = (SELECT count(*) FROM mcp_sources s WHERE s.workspace_id = ws
			AND EXISTS (SELECT 1 FROM mcp_sync_runs r WHERE r.source_id = s.id AND r.status IN ('queued', 'running'))),
		mcp_failed = (SELECT count(*) FROM mcp_sources s WHERE s.workspace_id = ws AND s.enabled
			AND (SELECT r.status FROM mcp_sync_runs r WHERE r.source_id = s.id AND r.status IN ('succeeded', 'partial', 'failed')
			     ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) = 'failed'),
		mcp_last_synced_at = (SELECT max(r.finished_at) FROM mcp_sync_runs r JOIN mcp_sources s ON s.id = r.source_id
			WHERE s.workspace_id = ws AND r.status IN ('succeeded', 'partial'))
	WHERE c.workspace_id = ws;
END $$;--> statement-breakpoint
CREATE FUNCTION "workspace_sync_counts_on_ds"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN PERFORM workspace_sync_counts_ds(OLD.workspace_id); END IF;
	IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.workspace_id IS DISTINCT FROM OLD.workspace_id) THEN PERFORM workspace_sync_counts_ds(NEW.workspace_id); END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "workspace_sync_counts_on_mcp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN PERFORM workspace_sync_counts_mcp(OLD.workspace_id); END IF;
	IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.workspace_id IS DISTINCT FROM OLD.workspace_id) THEN PERFORM workspace_sync_counts_mcp(NEW.workspace_id); END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "workspace_sync_counts_on_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' AND OLD.workspace_id IS NOT NULL AND OLD.deleted_at IS NULL THEN
		UPDATE workspace_sync_counts SET documents = documents - 1 WHERE workspace_id = OLD.workspace_id;
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.workspace_id IS NOT NULL AND NEW.deleted_at IS NULL THEN
		UPDATE workspace_sync_counts SET documents = documents + 1 WHERE workspace_id = NEW.workspace_id;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "workspace_sync_counts_on_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO workspace_sync_counts (workspace_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "workspace_sync_counts_workspace" AFTER INSERT ON "workspaces"
	FOR EACH ROW EXECUTE FUNCTION workspace_sync_counts_on_workspace();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workspace_sync_counts_ds_insert_delete" AFTER INSERT OR DELETE ON "data_sources"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_sync_counts_on_ds();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workspace_sync_counts_ds_update" AFTER UPDATE ON "data_sources"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
		OR OLD.last_synced_at IS DISTINCT FROM NEW.last_synced_at OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
	EXECUTE FUNCTION workspace_sync_counts_on_ds();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workspace_sync_counts_mcp_sources_insert_delete" AFTER INSERT OR DELETE ON "mcp_sources"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_sync_counts_on_mcp();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workspace_sync_counts_mcp_sources_update" AFTER UPDATE ON "mcp_sources"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
	EXECUTE FUNCTION workspace_sync_counts_on_mcp();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workspace_sync_counts_mcp_runs_insert_delete" AFTER INSERT OR DELETE ON "mcp_sync_runs"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_sync_counts_on_mcp();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workspace_sync_counts_mcp_runs_update" AFTER UPDATE ON "mcp_sync_runs"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.finished_at IS DISTINCT FROM NEW.finished_at OR OLD.queued_at IS DISTINCT FROM NEW.queued_at
		OR OLD.source_id IS DISTINCT FROM NEW.source_id OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
	EXECUTE FUNCTION workspace_sync_counts_on_mcp();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workspace_sync_counts_documents_insert_delete" AFTER INSERT OR DELETE ON "documents"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_sync_counts_on_document();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workspace_sync_counts_documents_update" AFTER UPDATE ON "documents"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
	EXECUTE FUNCTION workspace_sync_counts_on_document();--> statement-breakpoint
-- Backfill: every existing workspace, counted once.
INSERT INTO "workspace_sync_counts" ("workspace_id", "documents")
	SELECT w.id, (SELECT count(*) FROM documents doc WHERE doc.workspace_id = w.id AND doc.deleted_at IS NULL)::int FROM workspaces w;--> statement-breakpoint
SELECT workspace_sync_counts_ds(id), workspace_sync_counts_mcp(id) FROM workspaces;
