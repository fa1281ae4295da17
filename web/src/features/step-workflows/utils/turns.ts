/**
 * A step run's turns as the conversation draws them: each step's attempt at its work as one card (from "started" to
 * its result, its failure or its cancellation with the run, with the params it was given and the attempts that
 * failed and were tried again), drawn where the step started, so steps that run side by side read in the order they
 * began; the turns it gathers are not drawn again. A step skipped, or cancelled before it started, keeps a line of its
 * own. Which step is at work and which failure can be retried is read from the run's `run_steps` as they are now.
 */
import { type TurnNotes, annotateTurns } from "../../../components/turns";
import type { StepConversation, StepRunStatus, StepTurn } from "../../../lib/trpc";

/** A run keeps changing (and is polled) while it is running. */
export function isStepRunActive(status: StepRunStatus): boolean {
  return status === "running";
}

/** The server resumes a failed or cancelled run: its failed, cancelled and skipped steps run again. */
export function isStepRunResumable(status: StepRunStatus): boolean {
  return status === "failed" || status === "cancelled";
}

export type StepTurnOf<K extends StepTurn["kind"]> = Extract<StepTurn, { kind: K }>;
type StepEventOf<E extends StepTurnOf<"system">["body"]["event"]> = Extract<StepTurnOf<"system">["body"], { event: E }>;

/** A fork's first turn: the step and run it was forked from, and the inputs it runs with. */
export type ForkedStepTurn = StepTurnOf<"system"> & { body: StepEventOf<"forked"> };
export const isForkedTurn = (turn: StepTurnOf<"system">): turn is ForkedStepTurn => turn.body.event === "forked";

/** The turn that ended a step's attempt: its result, its failure, or its cancellation with the run. */
export type StepEnd = StepTurnOf<"output"> | StepTurnOf<"failed"> | StepTurnOf<"skipped">;

export interface StepAttemptError {
  attempt: number | null;
  error: string;
  at: string;
}

export interface StepEpisode {
  /** The id of the turn it began with ("started"): its card is drawn there. */
  id: string;
  stepId: string;
  tool: string;
  at: string;
  /** The params of the latest attempt as resolved; undefined when no attempt got them (a template could not be resolved). */
  params: unknown;
  /** Attempts that failed and were tried again automatically. */
  retried: StepAttemptError[];
  /** The turn that ended it; null while the step is still at work. */
  end: StepEnd | null;
}

export interface StepEpisodes {
  /** Each step's episode by the id of the turn it began with. */
  at: ReadonlyMap<string, StepEpisode>;
  /** The turns an episode gathers besides the one it began with: drawn in its card, not on their own. */
  folded: ReadonlySet<string>;
}

/** How many attempts a step turn took: the failed ones tried again, and the last. */
export const attemptsOf = (episode: Pick<StepEpisode, "retried">): number => episode.retried.length + 1;

export function stepEpisodes(turns: readonly StepTurn[]): StepEpisodes {
  const at = new Map<string, StepEpisode>();
  const folded = new Set<string>();
  const open = new Map<string, StepEpisode>();
  const episode = (turn: StepTurn, stepId: string, tool: string): StepEpisode => {
    const current = open.get(stepId);
    if (current) {
      folded.add(turn.id);
      return current;
    }
    const begun: StepEpisode = { id: turn.id, stepId, tool, at: turn.at, params: undefined, retried: [], end: null };
    open.set(stepId, begun);
    at.set(turn.id, begun);
    return begun;
  };
  const end = (turn: StepEnd, stepId: string, tool: string) => {
    episode(turn, stepId, tool).end = turn;
    open.delete(stepId);
  };
  for (const turn of turns) {
    if (!turn.node) continue;
    const { id: stepId, type: tool } = turn.node;
    switch (turn.kind) {
      case "started":
        open.delete(stepId);
        episode(turn, stepId, tool);
        break;
      case "system":
        if (turn.body.event === "params") episode(turn, stepId, tool).params = turn.body.value;
        break;
      case "failed":
        if (turn.body.retrying) episode(turn, stepId, tool).retried.push({ attempt: turn.attempt, error: turn.body.error, at: turn.at });
        else end(turn, stepId, tool);
        break;
      case "output":
        end(turn, stepId, tool);
        break;
      case "skipped":
        // A step cancelled while at work ends its card; one skipped, or cancelled before it started, is a line of its own.
        if (turn.body.status === "cancelled" && open.has(stepId)) end(turn, stepId, tool);
        break;
    }
  }
  return { at, folded };
}

/** Which step is at work, and which failure can be retried: a completed or cancelled run's cannot (a failed run's can). */
export function stepNotes({ run, turns }: Pick<StepConversation, "run" | "turns">): TurnNotes {
  const nodes = Object.fromEntries(run.steps.map((step) => [step.step_id, { status: step.status.toLowerCase() }]));
  return annotateTurns(turns, nodes, run.status === "completed" || run.status === "cancelled");
}
