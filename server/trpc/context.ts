import type { AuditTrail } from "../audit/trail";
import type { Refusal } from "../lib/refusal";
import type { Engine, StartedBy } from "../engine/engine";
import type { DecisionCommands } from "../decisions/commands";
import type { DecisionQueries } from "../decisions/queries";
import type { Review } from "../review/review";
import type { FlowCommands } from "../flows/commands";
import type { Notifications } from "../notifications/notifications";
import type { FlowQueries } from "../flows/queries";
import type { Flows } from "../flows/flows";
import type { RequestOrigin } from "../people/commands";
import type { People } from "../people/people";
import type { Identity } from "../people/schemas";
import type { Pipeline } from "../pipeline/pipeline";
import type { Policy } from "../policy/policy";
import type { WorkflowDoor } from "../workflows/door";
import type { StepWorkflows } from "../workflows/steps/steps";
import type { YamlWorkflows } from "../workflows/yaml/workflows";

/** The product's front doors and reads, as every request reaches them (server/app.ts builds them once, with more beside). */
export interface FrontDoors {
  /** The engine's queries (reads of any run); its changes go through `flows`, which refuses runs another front door owns. */
  engine: Engine;
  flows: FlowCommands;
  /** The plain flows' reads: a run as a conversation. */
  flowQueries: FlowQueries;
  /** The designer's side of plain flows: versions, drafts, the check of a graph, diffs. */
  flowVersions: Flows["versions"];
  /** Forks of runs, their lineage and the comparison of two runs. */
  forks: Flows["forks"];
  decisions: DecisionQueries;
  decisionCommands: DecisionCommands;
  /** Inline review: comments on parts of the output a decision reviews, drafts, edits and diffs. */
  review: Review;
  pipeline: Pipeline;
  /** The YAML workflows' own reads (their list, their runs). */
  workflows: YamlWorkflows;
  /** The step workflows' own procedures (their typed views, execute, the tools). */
  steps: StepWorkflows;
  /** Both workflow formats, each request handed to the front door it belongs to, as REST's /api/workflows does. */
  workflowDoor: WorkflowDoor;
  people: People;
  audit: AuditTrail;
  /** The instance's policy (separation of duties where a definition is silent): anyone reads it, operators change it. */
  policy: Pick<Policy, "commands" | "queries">;
  /** Webhook subscriptions (operators) and each person's email preference. */
  notifications: Pick<Notifications, "commands" | "queries">;
}

/** The tRPC context of one request: the front doors, and who is calling from where. */
export interface AppContext extends FrontDoors {
  /** Who is calling (identified by the HTTP door from the session cookie or bearer token). */
  identity: Identity;
  /** Who starts a run from this request (its decisions name them): the signed-in account's id and name. */
  starter: StartedBy | null;
  /** The name decisions are recorded under: the signed-in account's (null for no one, who may decide nothing). */
  actor: string | null;
  origin: RequestOrigin;
  /** Headers of the answer (the session cookie set by signing in). */
  resHeaders: Headers;
  /** Why this request may change nothing, when it is a cross-site change (server/http/guard.ts `checkCrossSite`). */
  crossSite: Refusal | null;
  /** Whether the browser reached the server over https (the session cookie is then Secure). */
  https: boolean;
}
