-- The inbox's search (a %text% pattern) is served by a trigram index: pg_trgm, a trusted extension of PostgreSQL's
-- contrib, which PGlite loads too (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("decisions"."title" || E'\n' || "decisions"."context")) STORED;--> statement-breakpoint
CREATE INDEX "decisions_open_assignee_idx" ON "decisions" USING btree ("assignee_account_id","waiting_since","id") WHERE "decisions"."state" = 'open';--> statement-breakpoint
CREATE INDEX "decisions_open_role_idx" ON "decisions" USING btree ("assignee_role","assignee_account_id") WHERE "decisions"."state" = 'open';--> statement-breakpoint
CREATE INDEX "decisions_open_due_idx" ON "decisions" USING btree ("waiting_since","id") WHERE "decisions"."state" = 'open' AND "decisions"."due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "decisions_waiting_idx" ON "decisions" USING btree ("waiting_since","id");--> statement-breakpoint
CREATE INDEX "decisions_search_idx" ON "decisions" USING gin ("search_text" gin_trgm_ops);