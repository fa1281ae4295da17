CREATE TABLE "review_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"engine_run_id" uuid NOT NULL,
	"node_key" text NOT NULL,
	"decision_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"anchor" text NOT NULL,
	"label" text NOT NULL,
	"quote" text NOT NULL,
	"text" text NOT NULL,
	"reply_to" uuid,
	"author_id" uuid,
	"author_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"sent_with_version" integer
);
--> statement-breakpoint
CREATE TABLE "review_drafts" (
	"decision_id" uuid NOT NULL,
	"person" text NOT NULL,
	"text" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_drafts_decision_id_person_pk" PRIMARY KEY("decision_id","person")
);
--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "reviewed" jsonb;--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_engine_run_id_stitch_runs_id_fk" FOREIGN KEY ("engine_run_id") REFERENCES "public"."stitch_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_decision_id_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."decisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_drafts" ADD CONSTRAINT "review_drafts_decision_id_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."decisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_comments_node_idx" ON "review_comments" USING btree ("engine_run_id","node_key","created_at");