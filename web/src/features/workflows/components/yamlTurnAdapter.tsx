/**
 * How a YAML run's conversation differs from every run's (components/Conversation.tsx): its nodes' avatars are their
 * kinds' glyphs, named with their kind in a line ("draft (prompt) started"); its message, its outputs and a wait read
 * their own way (Turns.tsx); an approval with the reviewer's edits shows the version it passed on; and a fork opens with a line
 * naming the run it came from and the decisions it kept. Decisions, retries, resumptions and the outcome are drawn as
 * in every run.
 */
import type { ConversationAdapter } from "../../../components/Conversation";
import { paths } from "../../../lib/router";
import type { WorkflowTurn } from "../../../lib/trpc";
import { EditedApprovalTurn, ForkedLine, MessageTurn, NodeAvatar, OutputTurn, type TurnActions, WaitingTurn, workflowRunName } from "./Turns";

export function yamlTurnAdapter(runId: string, actions: TurnActions): ConversationAdapter<WorkflowTurn> {
  const retry = (nodeId: string) => ({ pending: actions.pending(nodeId) === "retry", error: actions.error(nodeId), onRetry: () => actions.retry(nodeId) });
  return {
    runId,
    avatar: (node) => <NodeAvatar kind={node?.type ?? null} />,
    verb: "running",
    kindOf: (node) => node.type,
    inputName: "Message",
    runPath: (id) => paths.workflows.run(id),
    runName: workflowRunName,
    retry,
    forkOf: actions.forkOf,
    render: {
      input: (turn) => <MessageTurn turn={turn} />,
      output: (turn) => <OutputTurn turn={turn} />,
      waiting: (turn, notes) => <WaitingTurn turn={turn} open={notes.awaiting.has(turn.id)} actions={actions} />,
      decided: (turn) => (turn.body.edited ? <EditedApprovalTurn turn={turn} runId={actions.runId} /> : undefined),
      system: (turn) => (turn.body.event === "forked" ? <ForkedLine turn={turn} body={turn.body} /> : undefined),
    },
  };
}
