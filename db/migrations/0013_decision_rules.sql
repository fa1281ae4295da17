CREATE TABLE "decision_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"decision_id" uuid NOT NULL,
	"engine_run_id" uuid NOT NULL,
	"type" text NOT NULL,
	"by_id" uuid,
	"by_name" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "email_notifications" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "approvals_needed" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "approvals" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "on_overdue" jsonb;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "remind_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "overdue_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "decided_by_id" uuid;--> statement-breakpoint
ALTER TABLE "decision_events" ADD CONSTRAINT "decision_events_decision_id_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."decisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "decision_events_run_idx" ON "decision_events" USING btree ("engine_run_id","id");--> statement-breakpoint
CREATE INDEX "decisions_decided_by_idx" ON "decisions" USING btree ("decided_by_id","waiting_since","id");