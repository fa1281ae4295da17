ALTER TABLE "stitch_runs" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "stitch_runs" ADD COLUMN "owner_run_id" text;--> statement-breakpoint
-- Runs started before owners were recorded: their front door's row names them.
UPDATE "stitch_runs" r SET "owner" = 'pipeline', "owner_run_id" = p."id" FROM "pipeline_runs" p WHERE p."stitch_run_id" = r."id";--> statement-breakpoint
UPDATE "stitch_runs" r SET "owner" = w."format", "owner_run_id" = w."id"::text FROM "workflow_runs" w WHERE w."id" = r."id";
