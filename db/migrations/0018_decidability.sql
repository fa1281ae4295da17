CREATE TABLE "instance_policy" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"self_approval" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "self_approval_by_policy" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "decidable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "undecidable_cause" text;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "undecidable_reason" text;--> statement-breakpoint
CREATE INDEX "decisions_open_undecidable_idx" ON "decisions" USING btree ("waiting_since","id") WHERE "decisions"."state" = 'open' AND NOT "decisions"."decidable";--> statement-breakpoint
-- An installation that has people already kept the pipeline's reviews for someone other than the brief's submitter: it
-- keeps separation of duties as its policy (nothing is loosened silently). A fresh one allows self-approval.
INSERT INTO "instance_policy" ("id", "self_approval", "updated_by") SELECT true, false, 'migration 0018' WHERE EXISTS (SELECT 1 FROM "accounts");
