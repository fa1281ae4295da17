/**
 * How a step run's conversation differs from every run's: each step's attempt is one card, drawn at the turn it
 * began with, gathering its params, the attempts tried again and its end (the turns it gathers draw nothing), with
 * "Re-run from here" under it; the inputs as a list; a step skipped or cancelled before it started on a line of its
 * own; a fork's first turn with the inputs it runs with; and the outcome with the outputs. A person's retry, a
 * resumption and a fork made of the run are drawn as every door draws them.
 */
import type { ConversationAdapter } from "../../../components/Conversation";
import type { RetryControl } from "../../../components/Chat";
import { type ForkTarget, WithRerunFromHere } from "../../../components/RerunFromHere";
import type { TurnNotes } from "../../../components/turns";
import { paths } from "../../../lib/router";
import type { StepTurn } from "../../../lib/trpc";
import { type StepEpisodes, isForkedTurn } from "../utils/turns";
import { ForkedTurn, InputsTurn, OutcomeTurn, StepNotRun, StepTurnCard, ToolAvatar } from "./StepTurns";

/** What a person can do on a step: retry its failure (pending and refused per step), and re-run the run from it. */
export interface StepActions {
  retry(stepId: string): RetryControl;
  /** "Re-run from here" at a step: what a fork at it starts from; absent where none is offered. */
  forkOf?(stepId: string): ForkTarget;
}

export function stepTurnAdapter(runId: string, episodes: StepEpisodes, actions: StepActions): ConversationAdapter<StepTurn> {
  /** A step's card at the turn its episode began with; nothing for a turn it gathers; undefined for any other turn. */
  const card = (turn: StepTurn, notes: TurnNotes) => {
    const episode = episodes.at.get(turn.id);
    if (!episode) return episodes.folded.has(turn.id) ? null : undefined;
    const retry = episode.end && notes.retryable.has(episode.end.id) ? actions.retry(episode.stepId) : null;
    return (
      <WithRerunFromHere target={actions.forkOf?.(episode.stepId)}>
        <StepTurnCard episode={episode} live={notes.working.has(episode.id)} retry={retry} />
      </WithRerunFromHere>
    );
  };
  return {
    runId,
    avatar: (node) => <ToolAvatar tool={node?.type ?? null} />,
    runPath: paths.steps.run,
    runName: (id) => `run ${id.slice(0, 8)}`,
    render: {
      input: (turn) => <InputsTurn turn={turn} />,
      started: card,
      output: card,
      failed: card,
      skipped: (turn) => (episodes.folded.has(turn.id) ? null : <StepNotRun turn={turn} />),
      system: (turn, notes) => (isForkedTurn(turn) ? <ForkedTurn turn={turn} /> : turn.body.event === "params" ? card(turn, notes) : undefined),
      outcome: (turn) => <OutcomeTurn turn={turn} />,
    },
  };
}
