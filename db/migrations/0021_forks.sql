ALTER TABLE "stitch_runs" ADD COLUMN "forked_from_run_id" uuid;--> statement-breakpoint
ALTER TABLE "stitch_runs" ADD COLUMN "forked_from_node" text;--> statement-breakpoint
ALTER TABLE "stitch_runs" ADD COLUMN "fork_version" text;--> statement-breakpoint
CREATE INDEX "stitch_runs_forked_from_idx" ON "stitch_runs" USING btree ("forked_from_run_id");