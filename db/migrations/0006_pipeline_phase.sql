ALTER TABLE "pipeline_runs" ADD COLUMN "phase" text DEFAULT 'in_progress' NOT NULL;--> statement-breakpoint
UPDATE "pipeline_runs" SET "phase" = CASE
	WHEN "status" = 'COMPLETED' THEN 'completed'
	WHEN "status" = 'CANCELLED' THEN 'cancelled'
	WHEN "status" LIKE 'WAITING\_APPROVAL\_%' THEN 'waiting_approval'
	WHEN "status" LIKE 'RETRYING\_%' THEN 'retrying'
	WHEN "status" LIKE 'FAILED\_%' THEN 'failed'
	ELSE 'in_progress'
END;
