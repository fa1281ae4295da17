ALTER TABLE "stitch_dispatches" ADD COLUMN "last_failure" text;--> statement-breakpoint
ALTER TABLE "stitch_dispatches" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "stitch_dispatches" ADD COLUMN "redelivery" jsonb;--> statement-breakpoint
-- Rows waiting for another attempt when this lands: their cause read from the error their last attempt recorded.
UPDATE "stitch_dispatches" SET "last_failure" = CASE
  WHEN "last_error" LIKE 'HTTP %' THEN 'worker_answered'
  WHEN "last_error" LIKE 'no answer within %' THEN 'timeout'
  WHEN "last_error" LIKE 'no timer handler %' THEN 'no_handler'
  WHEN "last_error" LIKE '% failed: %' THEN 'work_failed'
  ELSE 'network_error' END
WHERE "last_error" IS NOT NULL;
