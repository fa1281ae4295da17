/**
 * The app's pages, each under /app so no server path (/runs, /trpc, /api, ...) is shadowed. Pages are
 * where features meet: a feature never imports another, so what one needs from another is passed here.
 */
import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { EmptyState } from "../components/EmptyState";
import { ErrorNotice } from "../components/ErrorNotice";
import { RequireRole } from "../components/RequireRole";
import { Spinner } from "../components/Spinner";
import { landingPath } from "../lib/landing";
import { Link, matchPath, navigate, paths } from "../lib/router";
import { roleAllows, useMe } from "../lib/session";
import { trpc } from "../lib/trpc";
import { RunWatched } from "../lib/runChanges";
import { InboxPage } from "../features/decisions/components/InboxPage";
import { useFlowConversation } from "../features/flow-conversation/api/runs";
import { FlowRunHeader } from "../features/flow-conversation/components/FlowRunHeader";
import { useAgents } from "../features/agents/api/list-agents";
import { PipelineOverview } from "../features/agents/components/PipelineOverview";
import { useConversation } from "../features/pipeline-conversation/api/get-conversation";
import { ConversationView } from "../features/pipeline-conversation/components/ConversationView";
import { RunHeader } from "../features/pipeline-conversation/components/RunHeader";
import { NewBrief } from "../features/runs/components/NewBrief";
import { useStepRun } from "../features/step-workflows/api/runs";
import { StepRunHeader } from "../features/step-workflows/components/StepRunHeader";
import { useWorkflowRun } from "../features/workflows/api/runs";
import { WorkflowRunHeader } from "../features/workflows/components/WorkflowRunHeader";
import "./home.css";

// The graph views carry React Flow; they load when first opened, keeping the conversation's first load small.
const FlowGraphView = lazy(() => import("../features/flow-graph/components/FlowGraphView").then((m) => ({ default: m.FlowGraphView })));
const EngineRunList = lazy(() => import("../features/flow-graph/components/EngineRunList").then((m) => ({ default: m.EngineRunList })));

// So do the sections a first page rarely is (a quarter of the app's own code): the briefs, conversations and reviews
// stay in the main script. The server names a section's files in the page it answers for one of its addresses
// (server/http/webAppRoutes.ts `sectionModules`), so opened directly it loads them beside the main script, not after.
const workflows = () => import("./sections/workflows");
const steps = () => import("./sections/steps");
const flows = () => import("./sections/flows");
const account = () => import("./sections/account");
const designer = () => import("./sections/designer");
const WorkflowList = lazy(() => workflows().then((m) => ({ default: m.WorkflowList })));
const NewWorkflowPage = lazy(() => workflows().then((m) => ({ default: m.NewWorkflowPage })));
const WorkflowPage = lazy(() => workflows().then((m) => ({ default: m.WorkflowPage })));
const WorkflowRunView = lazy(() => workflows().then((m) => ({ default: m.WorkflowRunView })));
const StepWorkflowList = lazy(() => steps().then((m) => ({ default: m.StepWorkflowList })));
const NewStepWorkflowPage = lazy(() => steps().then((m) => ({ default: m.NewStepWorkflowPage })));
const StepWorkflowPage = lazy(() => steps().then((m) => ({ default: m.StepWorkflowPage })));
const StepRunView = lazy(() => steps().then((m) => ({ default: m.StepRunView })));
const FlowRunView = lazy(() => flows().then((m) => ({ default: m.FlowRunView })));
const RunComparePage = lazy(() => flows().then((m) => ({ default: m.RunComparePage })));
const FlowListPage = lazy(() => designer().then((m) => ({ default: m.FlowListPage })));
const FlowDesignerPage = lazy(() => designer().then((m) => ({ default: m.FlowDesignerPage })));
const FlowRunDesignPage = lazy(() => designer().then((m) => ({ default: m.FlowRunDesignPage })));
const PeoplePage = lazy(() => account().then((m) => ({ default: m.PeoplePage })));
const TokensPage = lazy(() => account().then((m) => ({ default: m.TokensPage })));
const AuditTrailPage = lazy(() => account().then((m) => ({ default: m.AuditTrailPage })));
const SubscriptionsPage = lazy(() => account().then((m) => ({ default: m.SubscriptionsPage })));
const SettingsPage = lazy(() => account().then((m) => ({ default: m.SettingsPage })));
const PolicyPage = lazy(() => account().then((m) => ({ default: m.PolicyPage })));

function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="page-pad">
          <Spinner label="Loading" size="md" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

function HomePage() {
  return (
    <div className="page-pad home">
      <header className="home-head">
        <h1 className="home-title">Start a new run</h1>
        <p className="muted">Describe what should be built. Six agents turn the brief into requirements, inception, user stories, diagrams, pseudocode and test suites, and you review each step.</p>
      </header>
      <div className="home-grid">
        <NewBrief />
        <PipelineOverview />
      </div>
    </div>
  );
}

/**
 * `/`, the address people open and the brand link: the page where the person's work is (lib/landing.ts), once what
 * waits for them is read. A read that fails leaves them on the new brief rather than on a spinner.
 */
function LandingPage() {
  const me = useMe();
  const reviewer = roleAllows(me?.role, "reviewer");
  const operator = roleAllows(me?.role, "operator");
  // What waits for me is the count the navigation shows; what nobody can take, the inbox's count of them.
  const waiting = trpc.decisions.countForMe.useQuery(undefined, { enabled: reviewer });
  const decisions = trpc.decisions.list.useQuery({ view: "role", state: "open", limit: 1 }, { enabled: operator });
  const runs = trpc.pipeline.listRuns.useQuery({ limit: 50 }, { enabled: operator });
  const settled = (!reviewer || !waiting.isPending) && (!operator || (!decisions.isPending && !runs.isPending));
  useEffect(() => {
    if (!settled) return;
    const failed = runs.data?.items.find((run) => run.state.phase === "failed");
    const facts = { waitingForMe: waiting.data ?? 0, undecidable: decisions.data?.undecidable ?? 0, failedRunId: failed?.run_id ?? null };
    navigate(landingPath(me?.role ?? null, facts), { replace: true });
  }, [settled, waiting.data, decisions.data, runs.data, me?.role]);
  return (
    <div className="page-pad">
      <Spinner label="Finding what waits for you" size="md" />
    </div>
  );
}

/** The conversation shows the pipeline's progress and names the next agent: the agents come from the agents feature. */
function ConversationPage({ runId }: { runId: string }) {
  const agents = useAgents();
  return <ConversationView runId={runId} agents={agents.data ?? []} />;
}

/** A run's flow graph under the header of the front door it belongs to, once that header's run is read. */
/**
 * A run's graph under its front door's header. `watched`: the header's reads watch the run's change marker, which moves
 * with every engine event of the run, and read its engine run again when it moves; the graph does not poll it then.
 */
function GraphPage({ stitchRunId, header, error, watched = false }: { stitchRunId: string | undefined; header: ReactNode; error: unknown; watched?: boolean }) {
  if (stitchRunId) {
    return (
      <Loading>
        <RunWatched.Provider value={watched}>
          <FlowGraphView stitchRunId={stitchRunId} header={header} />
        </RunWatched.Provider>
      </Loading>
    );
  }
  if (error) return <div className="page-pad"><ErrorNotice title="This run could not be opened" error={error} /></div>;
  return (
    <div className="page-pad">
      <Spinner label="Loading the run" size="md" />
    </div>
  );
}

function RunGraphPage({ runId }: { runId: string }) {
  const conversation = useConversation(runId);
  const data = conversation.data;
  return <GraphPage stitchRunId={data?.stitch_run_id} header={data ? <RunHeader run={data.run} agents={data.agents} view="graph" /> : null} error={conversation.error} />;
}

/** A workflow run is an engine run under the same id, so the engine's graph view shows it. */
function WorkflowRunGraphPage({ runId }: { runId: string }) {
  const run = useWorkflowRun(runId);
  return <GraphPage stitchRunId={run.data?.id} header={run.data ? <WorkflowRunHeader run={run.data} view="graph" /> : null} error={run.error} watched />;
}

/** A step workflow run is an engine run under the same id too. */
function StepRunGraphPage({ runId }: { runId: string }) {
  const run = useStepRun(runId);
  return <GraphPage stitchRunId={run.data?.id} header={run.data ? <StepRunHeader run={run.data} view="graph" /> : null} error={run.error} watched />;
}

/** A plain flow's run is an engine run under the same id: its graph under the header of its conversation. */
function FlowRunGraphPage({ runId }: { runId: string }) {
  const conversation = useFlowConversation(runId);
  const data = conversation.data;
  const header = data ? (
    <>
      <FlowRunHeader run={data.run} view="graph" />
      <p>
        <Link to={paths.flows.run(runId)}>Open in designer</Link>: the version this run ran with, its states drawn over it.
      </p>
    </>
  ) : null;
  return <GraphPage stitchRunId={data?.run.id} header={header} error={conversation.error} watched />;
}

function NewFlowRedirect() {
  useEffect(() => navigate(paths.flows.flow(crypto.randomUUID()), { replace: true }), []);
  return <Spinner label="Starting a new flow" size="md" />;
}

function NotFoundPage() {
  return (
    <div className="page-pad">
      <EmptyState title="Page not found">
        <p>
          There is nothing at this address. <Link to={paths.home()}>Start a new run</Link> or pick one from the list.
        </p>
      </EmptyState>
    </div>
  );
}

export interface ResolvedRoute {
  page: ReactNode;
  /** The pipeline run the page shows, so the sidebar marks it. */
  runId: string | null;
  title: string;
}

export function resolveRoute(pathname: string): ResolvedRoute {
  if (pathname === "/") return { page: <LandingPage />, runId: null, title: "Stitch" };
  if (matchPath("/app", pathname)) return { page: <HomePage />, runId: null, title: "New brief" };
  let params = matchPath("/app/runs/:runId", pathname);
  if (params) return { page: <ConversationPage key={params.runId} runId={params.runId!} />, runId: params.runId!, title: "Conversation" };
  // Two runs of any front door compared (a pipeline run by its RUN_ id); the plain flows' address below shows the same page.
  params = matchPath("/app/runs/:runId/compare/:otherId", pathname);
  if (params) return { page: <Loading><RunComparePage key={`${params.runId}/${params.otherId}`} a={params.runId!} b={params.otherId!} /></Loading>, runId: null, title: "Compare runs" };
  params = matchPath("/app/runs/:runId/graph", pathname);
  if (params) return { page: <RunGraphPage key={params.runId} runId={params.runId!} />, runId: params.runId!, title: "Flow graph" };
  if (matchPath("/app/reviews", pathname)) return { page: <InboxPage />, runId: null, title: "Reviews" };
  if (matchPath("/app/engine", pathname)) return { page: <Loading><EngineRunList /></Loading>, runId: null, title: "Engine runs" };
  params = matchPath("/app/engine/runs/:stitchRunId", pathname);
  if (params) return { page: <Loading><FlowGraphView key={params.stitchRunId} stitchRunId={params.stitchRunId!} /></Loading>, runId: null, title: "Engine run" };
  if (matchPath("/app/flows", pathname)) return { page: <Loading><FlowListPage /></Loading>, runId: null, title: "Flows" };
  // A new flow is a flow id no flow has yet: its draft is kept under it, and its first save creates the flow.
  if (matchPath("/app/flows/new", pathname)) return { page: <RequireRole role="operator"><NewFlowRedirect /></RequireRole>, runId: null, title: "New flow" };
  params = matchPath("/app/flows/runs/:runId/design", pathname);
  if (params) return { page: <Loading><FlowRunDesignPage key={params.runId} runId={params.runId!} /></Loading>, runId: null, title: "Flow run on the canvas" };
  params = matchPath("/app/flows/runs/:runId", pathname);
  if (params) return { page: <Loading><FlowRunView key={params.runId} runId={params.runId!} /></Loading>, runId: null, title: "Flow run" };
  params = matchPath("/app/flows/runs/:runId/compare/:otherId", pathname);
  if (params) return { page: <Loading><RunComparePage key={`${params.runId}/${params.otherId}`} a={params.runId!} b={params.otherId!} /></Loading>, runId: null, title: "Compare runs" };
  params = matchPath("/app/flows/runs/:runId/graph", pathname);
  if (params) return { page: <FlowRunGraphPage key={params.runId} runId={params.runId!} />, runId: null, title: "Flow run graph" };
  if (matchPath("/app/workflows", pathname)) return { page: <Loading><WorkflowList /></Loading>, runId: null, title: "Workflows" };
  if (matchPath("/app/workflows/new", pathname)) return { page: <RequireRole role="operator"><Loading><NewWorkflowPage /></Loading></RequireRole>, runId: null, title: "New workflow" };
  params = matchPath("/app/flows/:flowId", pathname);
  if (params && params.flowId !== "runs") return { page: <Loading><FlowDesignerPage key={params.flowId} flowId={params.flowId!} /></Loading>, runId: null, title: "Flow designer" };
  params = matchPath("/app/workflows/runs/:runId", pathname);
  if (params) return { page: <Loading><WorkflowRunView key={params.runId} runId={params.runId!} /></Loading>, runId: null, title: "Workflow run" };
  params = matchPath("/app/workflows/runs/:runId/graph", pathname);
  if (params) return { page: <WorkflowRunGraphPage key={params.runId} runId={params.runId!} />, runId: null, title: "Workflow run graph" };
  params = matchPath("/app/workflows/:name", pathname);
  if (params) return { page: <Loading><WorkflowPage key={params.name} name={params.name!} /></Loading>, runId: null, title: params.name! };
  if (matchPath("/app/steps", pathname)) return { page: <Loading><StepWorkflowList /></Loading>, runId: null, title: "Step workflows" };
  if (matchPath("/app/steps/new", pathname)) return { page: <RequireRole role="operator"><Loading><NewStepWorkflowPage /></Loading></RequireRole>, runId: null, title: "New step workflow" };
  params = matchPath("/app/steps/runs/:runId", pathname);
  if (params) return { page: <Loading><StepRunView key={params.runId} runId={params.runId!} /></Loading>, runId: null, title: "Step workflow run" };
  params = matchPath("/app/steps/runs/:runId/graph", pathname);
  if (params) return { page: <StepRunGraphPage key={params.runId} runId={params.runId!} />, runId: null, title: "Step workflow run graph" };
  params = matchPath("/app/steps/:name", pathname);
  if (params) return { page: <Loading><StepWorkflowPage key={params.name} name={params.name!} /></Loading>, runId: null, title: params.name! };
  if (matchPath("/app/people", pathname)) return { page: <RequireRole role="operator"><Loading><PeoplePage /></Loading></RequireRole>, runId: null, title: "People" };
  if (matchPath("/app/tokens", pathname)) return { page: <Loading><TokensPage /></Loading>, runId: null, title: "API tokens" };
  if (matchPath("/app/audit", pathname)) return { page: <RequireRole role="operator"><Loading><AuditTrailPage /></Loading></RequireRole>, runId: null, title: "Audit trail" };
  if (matchPath("/app/subscriptions", pathname)) return { page: <RequireRole role="operator"><Loading><SubscriptionsPage /></Loading></RequireRole>, runId: null, title: "Subscriptions" };
  if (matchPath("/app/policies", pathname)) return { page: <RequireRole role="operator"><Loading><PolicyPage /></Loading></RequireRole>, runId: null, title: "Policies" };
  if (matchPath("/app/settings", pathname)) return { page: <Loading><SettingsPage /></Loading>, runId: null, title: "My settings" };
  return { page: <NotFoundPage />, runId: null, title: "Not found" };
}
