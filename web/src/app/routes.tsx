/**
 * The app's pages, each under /app so no server path (/runs, /trpc, /api, ...) is shadowed. Pages are
 * where features meet: a feature never imports another, so what one needs from another is passed here.
 */
import { lazy, Suspense, type ReactNode } from "react";
import { EmptyState } from "../components/EmptyState";
import { ErrorNotice } from "../components/ErrorNotice";
import { Spinner } from "../components/Spinner";
import { Link, matchPath, paths } from "../lib/router";
import { useAgents } from "../features/agents/api/list-agents";
import { PipelineOverview } from "../features/agents/components/PipelineOverview";
import { useConversation } from "../features/conversation/api/get-conversation";
import { ConversationView } from "../features/conversation/components/ConversationView";
import { RunHeader } from "../features/conversation/components/RunHeader";
import { NewBrief } from "../features/runs/components/NewBrief";
import "./home.css";

// The graph views carry React Flow; they load when first opened, keeping the conversation's first load small.
const FlowGraphView = lazy(() => import("../features/flow-graph/components/FlowGraphView").then((m) => ({ default: m.FlowGraphView })));
const EngineRunList = lazy(() => import("../features/flow-graph/components/EngineRunList").then((m) => ({ default: m.EngineRunList })));

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

/** The conversation shows the pipeline's progress and names the next agent: the agents come from the agents feature. */
function ConversationPage({ runId }: { runId: string }) {
  const agents = useAgents();
  return <ConversationView runId={runId} agents={agents.data ?? []} />;
}

function RunGraphPage({ runId }: { runId: string }) {
  const conversation = useConversation(runId);
  if (conversation.data) {
    return (
      <Loading>
        <FlowGraphView stitchRunId={conversation.data.stitch_run_id} header={<RunHeader run={conversation.data.run} view="graph" />} />
      </Loading>
    );
  }
  if (conversation.isError) return <div className="page-pad"><ErrorNotice title="This run could not be opened" error={conversation.error} /></div>;
  return (
    <div className="page-pad">
      <Spinner label="Loading the run" size="md" />
    </div>
  );
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
  if (pathname === "/" || matchPath("/app", pathname)) return { page: <HomePage />, runId: null, title: "New brief" };
  let params = matchPath("/app/runs/:runId", pathname);
  if (params) return { page: <ConversationPage key={params.runId} runId={params.runId!} />, runId: params.runId!, title: "Conversation" };
  params = matchPath("/app/runs/:runId/graph", pathname);
  if (params) return { page: <RunGraphPage key={params.runId} runId={params.runId!} />, runId: params.runId!, title: "Flow graph" };
  if (matchPath("/app/engine", pathname)) return { page: <Loading><EngineRunList /></Loading>, runId: null, title: "Engine runs" };
  params = matchPath("/app/engine/runs/:stitchRunId", pathname);
  if (params) return { page: <Loading><FlowGraphView key={params.stitchRunId} stitchRunId={params.stitchRunId!} /></Loading>, runId: null, title: "Engine run" };
  return { page: <NotFoundPage />, runId: null, title: "Not found" };
}
