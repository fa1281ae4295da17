/** The YAML workflows' pages: loaded when one is first opened (web/src/app/routes.tsx). */
export { NewWorkflowPage } from "../../features/workflows/components/NewWorkflowPage";
export { WorkflowList } from "../../features/workflows/components/WorkflowList";
export { WorkflowPage } from "../../features/workflows/components/WorkflowPage";
export { WorkflowRunView } from "../../features/workflows/components/WorkflowRunView";
