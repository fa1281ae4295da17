/**
 * One flow in the designer. It opens the person's draft when there is one (kept server-side as it changes), else the
 * flow's latest version; a flow id no flow has yet is a new flow, created by its first save. Operators draw and
 * save; everyone else, and anyone on a phone-sized screen, sees it read-only with the inspector usable.
 */
import { ReactFlowProvider } from "@xyflow/react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { useDesignedFlow } from "../api/flows";
import { useDraftOf } from "../api/drafts";
import { DesignerSession } from "./DesignerSession";
import "../designer.css";

const isNotFound = (error: unknown) => (error as { data?: { code?: string } } | null)?.data?.code === "NOT_FOUND";

export function FlowDesignerPage({ flowId }: { flowId: string }) {
  const flow = useDesignedFlow(flowId);
  const draft = useDraftOf(flowId);
  const flowMissing = flow.isError && isNotFound(flow.error);
  // No draft kept: the flow's latest version opens.
  const draftMissing = draft.isError && isNotFound(draft.error);
  const error = (flow.isError && !flowMissing && flow.error) || (draft.isError && !draftMissing && draft.error);
  if (error) return <div className="page-pad"><ErrorNotice title="The flow could not be opened" error={error} /></div>;
  if (flow.isPending || draft.isPending) {
    return (
      <div className="page-pad" aria-busy="true">
        <Spinner label="Opening the flow" size="md" />
      </div>
    );
  }
  const saved = flow.data ?? null;
  const kept = draft.data ?? null;
  return (
    <ReactFlowProvider>
      <DesignerSession
        key={flowId}
        flowId={flowId}
        saved={saved ? { name: saved.name, version: saved.version, graph: saved.graph } : null}
        draft={kept ? { name: kept.name, base_version: kept.base_version, graph: kept.graph, updated_at: kept.updated_at } : null}
      />
    </ReactFlowProvider>
  );
}
