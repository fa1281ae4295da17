/**
 * How a plain flow run's turns differ in the one conversation: each node's avatar is a glyph by its type, its runs
 * live under /app/flows/runs (compared there too), a failure is retried and any node that ran is re-run from here
 * through the run's actions; a node's output shows its type, a gate's wait brings its composer, and a Splitter's
 * paths, where a fork came from and what it copied are the flow's own system events.
 */
import type { ConversationAdapter } from "../../../components/Conversation";
import { WithRerunFromHere } from "../../../components/RerunFromHere";
import { paths } from "../../../lib/router";
import type { FlowTurn } from "../../../lib/trpc";
import { FlowNodeAvatar } from "./FlowNodeAvatar";
import { CopiedTurn, type FlowTurnActions, ForkedTurn, OutputTurn, SplitLine, WaitingTurn, flowRunName } from "./FlowTurns";

export function flowTurnAdapter(actions: FlowTurnActions): ConversationAdapter<FlowTurn> {
  return {
    runId: actions.runId,
    avatar: (node) => (node ? <FlowNodeAvatar type={node.type} /> : null),
    runPath: paths.flowRun,
    runName: flowRunName,
    comparePath: paths.flowRunCompare,
    retry: (nodeId) => ({ pending: actions.pending(nodeId) === "retry", error: actions.error(nodeId), onRetry: () => actions.retry(nodeId) }),
    forkOf: actions.forkOf,
    render: {
      output: (turn) => (turn.node ? <OutputTurn turn={turn} node={turn.node} /> : undefined),
      waiting: (turn, notes) => (turn.node ? <WaitingTurn turn={turn} node={turn.node} open={notes.awaiting.has(turn.id)} actions={actions} /> : undefined),
      system(turn) {
        const { node, body } = turn;
        if (!node) return undefined;
        switch (body.event) {
          case "split":
            return <SplitLine at={turn.at} node={node} body={body} />;
          case "forked":
            return <ForkedTurn turn={turn} node={node} body={body} />;
          case "copied":
            // A copied node is one a fork can start from, as its output would be had it run here.
            return (
              <WithRerunFromHere target={actions.forkOf(node.id)}>
                <CopiedTurn at={turn.at} node={node} body={body} />
              </WithRerunFromHere>
            );
          default:
            return undefined;
        }
      },
    },
  };
}
