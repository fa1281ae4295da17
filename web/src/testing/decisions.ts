/** Decisions typed as the server's router answers them, for the app's component tests. */
import type { Decision } from "../lib/trpc";

/** An open review of a pipeline output for any reviewer, waiting since a minute ago; `fields` change any of it. */
export function decision(fields: Partial<Decision> = {}): Decision {
  return {
    id: "d-1", kind: "review", state: "open", front_door: "pipeline", run_id: "RUN_1", engine_run_id: "e-1", node_id: "review_requirements",
    title: "Review Requirements v2 of tool-library", context: "tool-library", started_by: { id: null, name: "Ana Analyst" },
    waiting_since: new Date(Date.now() - 60_000).toISOString(), due_at: null, assignee: { kind: "role", id: null, name: null, role: "reviewer" },
    approvals_needed: 1, approvals: [], self_approval: false, decidable: true, undecidable: null, on_overdue: null, decided_by: null, decided_at: null, outcome: null, ...fields,
  };
}
