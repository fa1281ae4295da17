ALTER TABLE "decisions" ADD COLUMN "assignee_name" text;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "self_approval" boolean DEFAULT true NOT NULL;