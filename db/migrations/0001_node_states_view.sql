-- The seed's view of a run (Requirement 2.3): node_states as one JSONB object mapping nodeId to {status, output, error}.
CREATE VIEW "stitch_runs_with_node_states" AS
SELECT r."id", r."flow_id", r."status", r."input", r."created_at", r."updated_at",
  COALESCE((
    SELECT jsonb_object_agg(s."node_id", jsonb_strip_nulls(jsonb_build_object('status', s."status", 'error', s."error")) || jsonb_build_object('output', s."output"))
    FROM "stitch_node_states" s WHERE s."run_id" = r."id"
  ), '{}'::jsonb) AS "node_states"
FROM "stitch_runs" r;
