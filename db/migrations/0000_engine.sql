CREATE TABLE "stitch_dispatches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"node_attempt" integer NOT NULL,
	"url" text NOT NULL,
	"payload" jsonb NOT NULL,
	"deliveries" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stitch_flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"graph" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stitch_node_states" (
	"run_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"status" text NOT NULL,
	"output" jsonb,
	"error" text,
	"input" jsonb,
	"attempt" integer DEFAULT 0 NOT NULL,
	"path_total" integer,
	"path_done" integer DEFAULT 0 NOT NULL,
	"path_failed" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stitch_node_states_run_id_node_id_pk" PRIMARY KEY("run_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "stitch_run_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"node_id" text,
	"type" text NOT NULL,
	"payload" jsonb,
	"actor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stitch_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"input" jsonb,
	"running_count" integer DEFAULT 0 NOT NULL,
	"waiting_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stitch_dispatches" ADD CONSTRAINT "stitch_dispatches_run_id_stitch_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."stitch_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stitch_node_states" ADD CONSTRAINT "stitch_node_states_run_id_stitch_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."stitch_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stitch_run_events" ADD CONSTRAINT "stitch_run_events_run_id_stitch_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."stitch_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stitch_runs" ADD CONSTRAINT "stitch_runs_flow_id_stitch_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."stitch_flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stitch_dispatches_due_idx" ON "stitch_dispatches" USING btree ("run_at");--> statement-breakpoint
CREATE INDEX "stitch_dispatches_node_idx" ON "stitch_dispatches" USING btree ("run_id","node_id");--> statement-breakpoint
CREATE INDEX "stitch_run_events_run_idx" ON "stitch_run_events" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "stitch_runs_created_idx" ON "stitch_runs" USING btree ("created_at");