CREATE TABLE "stitch_flow_drafts" (
	"flow_id" uuid NOT NULL,
	"person" text NOT NULL,
	"name" text NOT NULL,
	"graph" jsonb NOT NULL,
	"base_version" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stitch_flow_drafts_flow_id_person_pk" PRIMARY KEY("flow_id","person")
);
--> statement-breakpoint
CREATE TABLE "stitch_flow_versions" (
	"flow_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"graph" jsonb NOT NULL,
	"message" text NOT NULL,
	"origin" text NOT NULL,
	"restored_from" integer,
	"author_id" uuid,
	"author_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stitch_flow_versions_flow_id_version_pk" PRIMARY KEY("flow_id","version")
);
--> statement-breakpoint
ALTER TABLE "stitch_flows" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "stitch_runs" ADD COLUMN "flow_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "stitch_flow_versions" ADD CONSTRAINT "stitch_flow_versions_flow_id_stitch_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."stitch_flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stitch_flow_drafts_person_idx" ON "stitch_flow_drafts" USING btree ("person","updated_at");--> statement-breakpoint
-- Every flow stored before versions existed is its own version 1, and every run of it ran on that version. A flow
-- whose runs a front door owns was registered by that front door (its versions are not the designer's to change).
INSERT INTO "stitch_flow_versions" ("flow_id", "version", "graph", "message", "origin", "created_at")
SELECT f."id", 1, f."graph",
  CASE WHEN EXISTS (SELECT 1 FROM "stitch_runs" r WHERE r."flow_id" = f."id" AND r."owner" IS NOT NULL) THEN 'Registered by the server' ELSE 'Created' END,
  CASE WHEN EXISTS (SELECT 1 FROM "stitch_runs" r WHERE r."flow_id" = f."id" AND r."owner" IS NOT NULL) THEN 'register' ELSE 'create' END,
  f."created_at"
FROM "stitch_flows" f;
