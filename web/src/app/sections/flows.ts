/** A plain flow's run as a conversation: loaded when one is first opened (web/src/app/routes.tsx). */
export { FlowRunView } from "../../features/flow-conversation/components/FlowRunView";
export { RunComparePage } from "../../features/flow-conversation/components/RunComparePage";
