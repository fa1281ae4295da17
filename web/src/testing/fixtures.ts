/**
 * Agent outputs shaped as the six built-in agents send them (an envelope of `artifact`, `changes_made` and
 * `justification`), and runs and conversations typed as the server's router answers them, for the app's
 * component tests.
 */
import type { AgentRef, Conversation, ConversationTurn, PipelineRun, RunState, RunSummary } from "../lib/trpc";

export const agents: AgentRef[] = [
  { slug: "requirements", name: "Requirements", order: 1, artifact_type: "requirements" },
  { slug: "inception", name: "Inception", order: 2, artifact_type: "inception" },
  { slug: "agile", name: "User stories", order: 3, artifact_type: "agile" },
  { slug: "diagramacion", name: "Diagrams", order: 4, artifact_type: "diagramacion" },
  { slug: "pseudocodigo", name: "Pseudocode", order: 5, artifact_type: "pseudocodigo" },
  { slug: "qa", name: "QA", order: 6, artifact_type: "qa" },
];

export const requirementsArtifact = {
  problem_statement_refined: "Riders need to book and pay for city trips from one app, and drivers need a fair way to accept them.",
  identified_domains: ["mobility", "payments"],
  core_capabilities: [
    { id: "CAP-001", name: "Book a trip", description: "A rider books a trip between two addresses.", actor: "rider" },
    { id: "CAP-002", name: "Pay in app", description: "A rider pays with a stored card.", actor: "rider" },
  ],
  external_dependencies: ["Payment gateway", "Maps API"],
  assumptions: ["Riders have a smartphone"],
};

export const inceptionArtifact = {
  product_vision: "The simplest way to get across town.",
  scope_in: ["Trip booking", "Card payments"],
  scope_out: ["Cash payments"],
  stakeholders: ["Riders", "Drivers", "Operations"],
  high_level_architecture: "A mobile client talks to a booking API backed by PostgreSQL.",
  risk_matrix: [{ id: "R-1", risk: "Payment provider outage", probability: "low", impact: "high", mitigation: "Queue charges and retry" }],
  functional_requirements: [{ id: "FR-001", title: "Book a trip", description: "The rider books a trip." }],
  non_functional_requirements: [{ id: "NFR-001", title: "Latency", description: "Booking answers within 2 seconds." }],
};

export const agileArtifact = {
  epics: [
    {
      id: "EP-01",
      title: "Booking",
      description: "Everything about booking a trip.",
      user_stories: [
        {
          id: "US-001",
          title: "Book a trip",
          as_a: "rider",
          i_want: "to book a trip",
          so_that: "I get across town",
          acceptance_criteria: ["Given an address, when I confirm, then a driver is requested"],
          priority: "high",
          story_points: 5,
        },
      ],
    },
  ],
};

export const diagramArtifact = {
  entity_relationship_model: {
    entities: [
      { name: "Rider", attributes: [{ name: "id", type: "uuid", key: "PK" }, { name: "email", type: "text" }] },
      { name: "Trip", attributes: ["id", "rider_id"] },
    ],
    relationships: [{ from: "Rider", to: "Trip", cardinality: "1:N", label: "books" }],
  },
  mermaid_sequence_diagram: "sequenceDiagram\n  participant R as Rider\n  participant A as API\n  R->>A: POST /trips\n  A-->>R: 201 Created",
};

export const pseudocodeArtifact = {
  user_story_pseudocode: {
    "US-001": "FUNCTION bookTrip(rider, from, to)\n  trip <- NEW Trip(rider, from, to)\n  RETURN trip\nEND",
  },
};

export const qaArtifact = {
  test_suites: [
    {
      id: "TS-01",
      name: "Booking",
      user_story_ids: ["US-001"],
      test_cases: [
        {
          id: "TC-001",
          title: "Book a trip with a valid address",
          user_story_id: "US-001",
          type: "functional",
          priority: "high",
          preconditions: ["Rider is signed in"],
          steps: ["Open the app", "Enter an address", "Confirm"],
          expected_result: "A driver is requested",
        },
      ],
    },
  ],
};

export function envelope(artifact: unknown, changes: Partial<Record<"added" | "removed" | "modified", unknown[]>> = {}, justification = "First draft from the brief.") {
  return { artifact, changes_made: { added: [], removed: [], modified: [], ...changes }, justification };
}

const at = (minute: number) => new Date(Date.UTC(2026, 1, 17, 10, minute)).toISOString();

/** The status string the server writes beside the state, for older clients; the app reads `state` only. */
function statusText({ phase, agent }: RunState): string {
  return phase === "completed" || phase === "cancelled" ? phase.toUpperCase() : `${phase.toUpperCase()}_${(agent ?? "").toUpperCase()}`;
}

/** A run waiting for review of the requirements; `overrides.state` sets its status string to match. */
export function runView(overrides: Partial<PipelineRun> = {}): PipelineRun {
  const state = overrides.state ?? { phase: "waiting_approval", agent: "requirements" };
  return {
    run_id: "RUN_1",
    domain: "mobility",
    brief: "A ride-hailing app for a mid-sized city with card payments.",
    status: statusText(state),
    state,
    current_agent: agents[0]!,
    is_waiting_for_user: true,
    failure: null,
    submitted_by: { id: "00000000-0000-4000-8000-00000000000a", name: "Ana Analyst" },
    created_at: at(0),
    updated_at: at(1),
    retry_allowed: overrides.failure != null,
    forked_from: null,
    forks: [],
    ...overrides,
  };
}

/** A run as the sidebar's list has it: a run waiting for review waits for the reviewers unless `waiting_for` says whom. */
export function runSummary(overrides: Partial<RunSummary> = {}): RunSummary {
  const { brief: _brief, ...run } = runView(overrides);
  const waiting = run.state.phase === "waiting_approval";
  return { ...run, waiting_for: waiting ? { kind: "role", id: null, name: null, role: "reviewer" } : null, ...overrides };
}

/** An agent's node, as its turns name it. */
const nodeOf = (agent: AgentRef) => ({ id: `agent_${agent.slug}`, label: agent.name, type: "agent" });

type Of<K extends ConversationTurn["kind"]> = Extract<ConversationTurn, { kind: K }>;

/** A pipeline run's turns, each of its kind, at fixed times. */
export const turns = {
  brief: (): Of<"input"> => ({
    kind: "input", id: "brief", at: at(0), who: "Ana Analyst", node: null, attempt: null, body: { value: "A ride-hailing app for a mid-sized city with card payments.", domain: "mobility", version: 1 },
  }),
  working: (id: string, agent: AgentRef, revising = false): Of<"started"> => ({ kind: "started", id, at: at(1), who: null, node: nodeOf(agent), attempt: null, body: { revising, feedback: null } }),
  artifact: (id: string, agent: AgentRef, version: number, content: Record<string, unknown>): Of<"output"> => ({
    kind: "output", id, at: at(2 + version), who: null, node: nodeOf(agent), attempt: null,
    body: {
      value: content, artifact_type: agent.artifact_type, version, metadata: null, edited_by: null, copied_from: null,
      made_by: { kind: "offline", label: "Offline drafting (no language model)", detail: "Drafted offline by the built-in rules from the brief: a stand-in for a language model." },
    },
  }),
  approval: (id: string, agent: AgentRef, who: string | null = null, comment: string | null = null): Of<"decided"> => ({
    kind: "decided", id, at: at(10), who, node: nodeOf(agent), attempt: null, body: { decision: "approve", text: comment, value: null, decided_in: null },
  }),
  rejection: (id: string, agent: AgentRef, feedback: string): Of<"decided"> => ({
    kind: "decided", id, at: at(5), who: "dana", node: nodeOf(agent), attempt: null, body: { decision: "request_changes", text: feedback, value: null, decided_in: null },
  }),
  error: (id: string, agent: AgentRef, error: string): Of<"failed"> => ({ kind: "failed", id, at: at(6), who: null, node: nodeOf(agent), attempt: null, body: { error, retrying: false, retryable: true } }),
  cancelled: (id: string, reason: string | null = null, who: string | null = null): Of<"outcome"> => ({ kind: "outcome", id, at: at(7), who, node: null, attempt: null, body: { status: "cancelled", reason } }),
};

export function conversation(run: PipelineRun, list: ConversationTurn[]): Conversation {
  return { run, stitch_run_id: "00000000-0000-4000-8000-000000000001", agents, turns: list };
}
