CREATE TABLE "pipeline_agents" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"order" integer NOT NULL,
	"artifact_type" text NOT NULL,
	"webhook_url" text NOT NULL,
	"webhook_path" text,
	"context" jsonb NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipeline_artifacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"artifact_type" text NOT NULL,
	"version" integer NOT NULL,
	"content" jsonb NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipeline_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"kind" text NOT NULL,
	"agent" text,
	"payload" jsonb,
	"actor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipeline_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"brief" text NOT NULL,
	"status" text NOT NULL,
	"current_agent" text,
	"is_waiting_for_user" boolean DEFAULT false NOT NULL,
	"failure" text,
	"stitch_run_id" uuid NOT NULL,
	"agents" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pipeline_runs_stitch_run_id_unique" UNIQUE("stitch_run_id")
);
--> statement-breakpoint
ALTER TABLE "pipeline_artifacts" ADD CONSTRAINT "pipeline_artifacts_run_id_pipeline_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."pipeline_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_events" ADD CONSTRAINT "pipeline_events_run_id_pipeline_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."pipeline_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pipeline_artifacts_version_idx" ON "pipeline_artifacts" USING btree ("run_id","artifact_type","version");--> statement-breakpoint
CREATE INDEX "ix_artifacts_run_type_created" ON "pipeline_artifacts" USING btree ("run_id","artifact_type","created_at");--> statement-breakpoint
CREATE INDEX "pipeline_events_run_idx" ON "pipeline_events" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "pipeline_runs_created_idx" ON "pipeline_runs" USING btree ("created_at");