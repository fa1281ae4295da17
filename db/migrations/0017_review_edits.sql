CREATE TABLE "review_edits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"decision_id" uuid NOT NULL,
	"engine_run_id" uuid NOT NULL,
	"node_key" text NOT NULL,
	"output" jsonb,
	"author_id" uuid,
	"author_name" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_edits" ADD CONSTRAINT "review_edits_decision_id_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."decisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_edits_decision_idx" ON "review_edits" USING btree ("decision_id","created_at");