CREATE TABLE "decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"engine_run_id" uuid NOT NULL,
	"node_key" text NOT NULL,
	"front_door" text NOT NULL,
	"run_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"context" text DEFAULT '' NOT NULL,
	"started_by_id" uuid,
	"started_by_name" text,
	"state" text DEFAULT 'open' NOT NULL,
	"waiting_since" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone,
	"assignee_role" text DEFAULT 'reviewer' NOT NULL,
	"assignee_account_id" uuid,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
ALTER TABLE "stitch_runs" ADD COLUMN "started_by_id" uuid;--> statement-breakpoint
ALTER TABLE "stitch_runs" ADD COLUMN "started_by_name" text;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_engine_run_id_stitch_runs_id_fk" FOREIGN KEY ("engine_run_id") REFERENCES "public"."stitch_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "decisions_open_node_idx" ON "decisions" USING btree ("engine_run_id","node_key") WHERE "decisions"."state" = 'open';--> statement-breakpoint
CREATE INDEX "decisions_state_idx" ON "decisions" USING btree ("state","waiting_since","id");--> statement-breakpoint
CREATE INDEX "decisions_due_idx" ON "decisions" USING btree ("due_at") WHERE "decisions"."state" = 'open' AND "decisions"."due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "decisions_run_idx" ON "decisions" USING btree ("run_id");