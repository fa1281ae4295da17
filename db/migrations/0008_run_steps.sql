CREATE INDEX "workflow_turns_node_idx" ON "workflow_turns" USING btree ("run_id","node_id","id");--> statement-breakpoint
-- The seed's run_steps: one row per step of each step workflow run (db/schema.ts, runSteps). The kinds of turn are STEP_TURN's.
CREATE VIEW "run_steps" AS
SELECT md5(s."run_id"::text || '/' || s."node_id")::uuid AS "id", s."run_id", s."node_id" AS "step_id", upper(s."status") AS "status",
  given."payload" -> 'input' AS "input",
  CASE WHEN s."status" = 'completed' THEN s."output" END AS "output",
  CASE WHEN s."status" <> 'completed' THEN s."error" END AS "error",
  s."attempt" AS "attempts",
  fired."created_at" AS "started_at",
  CASE WHEN s."status" IN ('completed', 'failed', 'skipped', 'cancelled') THEN settled."created_at" END AS "completed_at"
FROM "stitch_node_states" s
JOIN "workflow_runs" r ON r."id" = s."run_id" AND r."format" = 'steps'
-- The step's latest firing, the params its latest attempt since then ran with, and when it settled since then.
LEFT JOIN LATERAL (
  SELECT t."id", t."created_at" FROM "workflow_turns" t
  WHERE t."run_id" = s."run_id" AND t."node_id" = s."node_id" AND t."kind" = 'step_started'
  ORDER BY t."id" DESC LIMIT 1
) fired ON true
LEFT JOIN LATERAL (
  SELECT t."payload" FROM "workflow_turns" t
  WHERE t."run_id" = s."run_id" AND t."node_id" = s."node_id" AND t."kind" = 'step_input' AND t."id" > coalesce(fired."id", 0)
  ORDER BY t."id" DESC LIMIT 1
) given ON true
LEFT JOIN LATERAL (
  SELECT t."created_at" FROM "workflow_turns" t
  WHERE t."run_id" = s."run_id" AND t."node_id" = s."node_id" AND t."kind" IN ('step_completed', 'step_failed', 'step_skipped', 'step_cancelled')
    AND t."id" > coalesce(fired."id", 0)
  ORDER BY t."id" DESC LIMIT 1
) settled ON true;
