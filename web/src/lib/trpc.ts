/**
 * The app's only way to application data: tRPC hooks typed by the server's router, and the types of what
 * they answer. Nothing here is hand-written fetch, and this type-only import of the router is all the app
 * takes from the server: every other module reads the server's shapes through the names below.
 */
import { createTRPCReact } from "@trpc/react-query";
import type { AppRouter, RouterInputs, RouterOutputs } from "../../../server/trpc/router";

export type { RouterInputs, RouterOutputs };

export const trpc = createTRPCReact<AppRouter>();

type Pipeline = RouterOutputs["pipeline"];
type Engine = RouterOutputs["engine"];
type Workflows = RouterOutputs["workflows"];
type Steps = RouterOutputs["steps"];

/** The agent pipeline: its agents, its runs, and a run told as a conversation. */
export type PipelineAgent = Pipeline["agents"][number];
export type PipelineRun = Pipeline["getRun"];
export type RunSummary = Pipeline["listRuns"]["items"][number];
/** Where a run stands, typed: read this, never the run's `status` string. */
export type RunState = PipelineRun["state"];
export type RunPhase = RunState["phase"];
export type AgentRef = NonNullable<PipelineRun["current_agent"]>;
export type Conversation = Pipeline["conversation"];
export type ConversationTurn = Conversation["turns"][number];
export type NewRunInput = RouterInputs["pipeline"]["createRun"];

/** The reviewer's inbox: every decision a run waits for, whichever front door owns it. */
export type DecisionPage = RouterOutputs["decisions"]["list"];
export type Decision = DecisionPage["items"][number];
export type DecisionActivity = RouterOutputs["decisions"]["activity"]["items"][number];
export type DecisionView = NonNullable<Exclude<RouterInputs["decisions"]["list"], void>["view"]>;

/** The workflow engine: any flow's graph, its runs and their node states. */
export type FlowGraph = Engine["flows"]["get"]["graph"];
export type FlowNode = FlowGraph["nodes"][number];
export type EngineRun = Engine["runs"]["get"];
export type EngineRunStatus = EngineRun["status"];
/** One engine run as the list shows it. */
export type EngineRunSummary = Engine["runs"]["list"][number];
export type NodeState = EngineRun["node_states"][string];
export type NodeStatus = NodeState["status"];
/** A plain flow run (no front door owns it) told as a conversation: its input, its nodes' turns, its gates' decisions. */
export type FlowConversation = Engine["runs"]["conversation"];
export type FlowRun = FlowConversation["run"];
export type FlowTurn = FlowConversation["turns"][number];
export type FlowNodeFacts = FlowConversation["nodes"][string];

/**
 * YAML workflows: their definitions, their runs, and a run told as a conversation. `workflows.get` and `workflows.run`
 * (and the run's changes) answer a step workflow's too, as REST does; these are the YAML shapes.
 */
export type WorkflowSummary = Workflows["list"][number];
export type WorkflowDetail = Extract<Workflows["get"], { format: "yaml" }>;
/** A problem or a warning located in a definition's text (1-based line and column). */
export type WorkflowIssue = Workflows["validate"]["warnings"][number];
export type WorkflowRunSummary = Workflows["runs"][number];
export type WorkflowRun = Workflows["conversation"]["run"];
/** A run as the workflows' door answers it: a YAML workflow's, or a step workflow's (`format: "steps"`). */
export type AnyWorkflowRun = Workflows["run"];
export type WorkflowRunStatus = WorkflowRun["status"];
export type WorkflowNodeRun = WorkflowRun["nodes"][string];
export type WorkflowConversation = Workflows["conversation"];
export type WorkflowTurn = WorkflowConversation["turns"][number];

/** JSON step workflows: their definitions and inputs, the tools, their runs with `run_steps`, and a run told as a conversation. */
export type StepWorkflowSummary = Steps["list"][number];
export type StepWorkflowDetail = Steps["get"];
export type StepWorkflowInput = StepWorkflowSummary["inputs"][number];
export type StepInputType = StepWorkflowInput["type"];
export type StepTool = Steps["tools"][number];
export type StepRunSummary = Steps["runs"][number];
export type StepRun = Steps["run"];
export type StepRunStatus = StepRun["status"];
export type RunStep = StepRun["steps"][number];
export type RunStepStatus = RunStep["status"];
export type StepConversation = Steps["conversation"];
export type StepTurn = StepConversation["turns"][number];

/** Inline review: the output a decision reviews with its parts, the comments on them, and what changed between versions. */
export type ReviewOutput = RouterOutputs["review"]["output"];
export type ReviewAnchor = ReviewOutput["anchors"][number];
export type ReviewComment = RouterOutputs["review"]["comments"]["items"][number];
export type ReviewDiff = RouterOutputs["review"]["diff"];
export type ReviewDiffChange = ReviewDiff["changes"][number];

/** People: who is signed in and with which role, the accounts operators manage, API tokens, and the audit trail. */
export type AuthStatus = RouterOutputs["auth"]["status"];
export type Me = NonNullable<AuthStatus["me"]>;
export type Role = Me["role"];
export type Account = RouterOutputs["accounts"]["list"][number];
export type ApiToken = RouterOutputs["tokens"]["list"][number];
export type NewApiToken = RouterOutputs["tokens"]["create"];
export type Invitation = RouterOutputs["accounts"]["invite"];
export type AuditEntry = RouterOutputs["audit"]["list"]["entries"][number];
export type AuditFilter = Omit<NonNullable<RouterInputs["audit"]["list"]>, "before" | "limit">;

/** Notifications: operators' webhook subscriptions and their deliveries, and each person's email preference. */
export type Subscription = RouterOutputs["subscriptions"]["list"][number];
export type NewSubscription = RouterOutputs["subscriptions"]["create"];
export type NotificationEventType = Subscription["events"][number];
export type Delivery = RouterOutputs["subscriptions"]["deliveries"]["items"][number];
export type EmailPreference = RouterOutputs["me"]["emailPreference"];
export type DeliveryStatus = Delivery["status"];
