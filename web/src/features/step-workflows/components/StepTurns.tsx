/**
 * One component per item of a step run's conversation: the inputs it was started with, a step's turn (its tool, the
 * params as resolved, the attempts that failed and were tried again, its result, failure or cancellation, and Retry
 * while its failure can be retried), a step skipped or cancelled before it started, a person's retry and resume,
 * the run's cancellation, and its outcome with the outputs; a fork's first turn (where it came from, with a link to
 * that run) and each fork made of the run. Under each step's turn, "Re-run from here" where the run offers forks.
 * Everything a tool answered is shown as text.
 */
import { CancelledNote, HumanTurn, OutcomeLine, ResumedLine, type RetryControl, RetriedLine, RetryAction, SystemLine, Time, TypingDots, cutLongText as cut } from "../../../components/Chat";
import { GlyphAvatar } from "../../../components/AgentAvatar";
import { NodeMessage } from "../../../components/NodeTurns";
import { type ForkTarget, WithRerunFromHere } from "../../../components/RerunFromHere";
import { Link, paths } from "../../../lib/router";
import type { RunStepStatus, StepTurn } from "../../../lib/trpc";
import { describeResult } from "../utils/result";
import { type StepEpisode, type StepItem, attemptsOf } from "../utils/turns";
import { StepStatus, Value, ValueList } from "./StepParts";

const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** What a person can do on a step: retry its failure (pending and refused per step), and re-run the run from it. */
export interface StepActions {
  retry(stepId: string): RetryControl;
  /** "Re-run from here" at a step: what a fork at it starts from; absent where none is offered. */
  forkOf?(stepId: string): ForkTarget;
}

export function StepItemView({ item, actions }: { item: StepItem; actions: StepActions }) {
  switch (item.kind) {
    case "inputs":
      return <InputsTurn turn={item.turn} />;
    case "step":
      return (
        <WithRerunFromHere target={actions.forkOf?.(item.stepId)}>
          <StepTurnCard episode={item} retry={item.retryable ? actions.retry(item.stepId) : null} />
        </WithRerunFromHere>
      );
    case "step-skipped":
    case "step-cancelled":
      return <StepNotRun turn={item.turn} status={item.kind === "step-skipped" ? "SKIPPED" : "CANCELLED"} />;
    case "run-cancelled":
      return <CancelledNote at={item.turn.at} actor={item.turn.actor} reason={item.turn.text} />;
    case "retried":
      return <RetriedLine name={item.turn.step_id ?? ""} at={item.turn.at} actor={item.turn.actor} />;
    case "resumed":
      return <ResumedLine at={item.turn.at} actor={item.turn.actor} />;
    case "outcome":
      return <OutcomeTurn turn={item.turn} />;
    case "forked":
      return <ForkedTurn turn={item.turn} />;
    case "forked-into": {
      const fork = typeof item.turn.data?.fork_run_id === "string" ? item.turn.data.fork_run_id : null;
      return (
        <SystemLine at={item.turn.at} actor={item.turn.actor}>
          Forked at {item.turn.step_id} into {fork ? <Link to={paths.steps.run(fork)}>run {fork.slice(0, 8)}</Link> : "another run"}
        </SystemLine>
      );
    }
  }
}

/** The fork's first turn: the step and run it came from, who forked it, and the inputs it runs with. */
export function ForkedTurn({ turn }: { turn: StepTurn }) {
  const from = typeof turn.data?.from_run_id === "string" ? turn.data.from_run_id : "";
  const inputs = record(turn.data?.inputs);
  return (
    <HumanTurn
      label={`Forked from ${turn.step_id}`}
      author={
        <span className="message-author">
          Forked from {turn.step_id} of <Link to={paths.steps.run(from)}>run {from.slice(0, 8)}</Link>
        </span>
      }
      actor={turn.actor}
      at={turn.at}
      className="turn-forked"
    >
      <p className="muted small">The steps before {turn.step_id} were copied from that run, not run again; {turn.step_id} and what follows ran afresh.</p>
      {Object.keys(inputs).length === 0 ? null : <ValueList values={inputs} label={turn.data?.edited === true ? "Inputs, edited" : "Inputs"} />}
    </HumanTurn>
  );
}

export function InputsTurn({ turn }: { turn: StepTurn }) {
  const inputs = record(turn.data?.inputs);
  return (
    <HumanTurn label="Inputs" author={<span className="message-author">Inputs</span>} actor={turn.actor} at={turn.at} className="step-inputs">
      {Object.keys(inputs).length === 0 ? <p className="muted small">The run was started without inputs.</p> : <ValueList values={inputs} label="Inputs" />}
    </HumanTurn>
  );
}

function ToolAvatar({ tool }: { tool: string | null }) {
  const family = tool?.split(".")[0] ?? "";
  return <GlyphAvatar className={`step-avatar step-avatar-${family || "none"}`} glyph={family.charAt(0).toUpperCase() || "•"} />;
}

const endStatus: Record<string, RunStepStatus> = { output: "COMPLETED", failed: "FAILED", cancelled: "CANCELLED" };

/** A tool's result: its text (a `text` or `summary` field, or a plain string) to read, and the whole result as JSON. */
export function StepResult({ output, label }: { output: unknown; label: string }) {
  const view = describeResult(output);
  if (output === null || (view.text === null && view.json === null)) return <p className="muted small">No result.</p>;
  const json = view.json === null ? null : (
    <pre className="code-block step-json" tabIndex={0} aria-label={`${label} as JSON`}>
      <code>{cut(view.json)}</code>
    </pre>
  );
  if (view.text === null) return json;
  return (
    <>
      {view.textField ? <p className="step-field-name">{view.textField}</p> : null}
      <p className="step-text">{cut(view.text)}</p>
      {json ? (
        <details className="step-whole">
          <summary>The whole result as JSON</summary>
          {json}
        </details>
      ) : null}
    </>
  );
}

export function StepTurnCard({ episode, retry }: { episode: StepEpisode; retry: RetryControl | null }) {
  const { stepId, tool, end, live } = episode;
  const status: RunStepStatus = end ? (endStatus[end.kind] ?? "COMPLETED") : "RUNNING";
  const attempts = attemptsOf(episode);
  return (
    <NodeMessage
      label={`Step ${stepId}`}
      avatar={<ToolAvatar tool={tool} />}
      name={stepId}
      tags={
        <>
          {tool ? <code className="tag step-tool">{tool}</code> : null}
          <StepStatus status={status} />
          <span className="step-attempts">{plural(attempts, "attempt")}</span>
        </>
      }
      at={end?.at ?? episode.at}
      className={`step-turn step-turn-${status.toLowerCase()}`}
      card="step-card"
      body="step-body"
    >
      <h3 className="step-label">Params</h3>
      {episode.params === undefined ? (
        <p className="muted small">{end ? "The params could not be resolved, so the tool did not run." : "Resolving the params…"}</p>
      ) : (
        <Value value={episode.params} label={`Params of ${stepId}`} />
      )}
      {episode.retried.length > 0 ? (
        <ul className="step-retries" aria-label={`Failed attempts of ${stepId}`}>
          {episode.retried.map((failure, i) => (
            <li key={i}>
              <span className="step-retry-label">Attempt {failure.attempt ?? i + 1} failed, tried again:</span> {failure.error}
            </li>
          ))}
        </ul>
      ) : null}
      {live ? (
        <p className="step-working" role="status">
          <TypingDots /> {tool ?? "The tool"} is working{attempts > 1 ? `, attempt ${attempts}` : ""}…
        </p>
      ) : null}
      {end?.kind === "output" ? (
        <>
          <h3 className="step-label">Result</h3>
          <StepResult output={end.data?.output} label={`Result of ${stepId}`} />
        </>
      ) : null}
      {end?.kind === "failed" ? (
        <div className="step-error" role={retry ? "alert" : undefined}>
          <h3 className="step-label">Error</h3>
          <p className="error-text">{end.text || "No error was recorded."}</p>
          {retry ? <RetryAction retry={retry} /> : null}
        </div>
      ) : null}
      {end?.kind === "cancelled" ? <p className="step-reason">{end.text || "Cancelled with the run."}</p> : null}
    </NodeMessage>
  );
}

/** A step that never started: skipped because what it depends on failed, or cancelled with the run. */
export function StepNotRun({ turn, status }: { turn: StepTurn; status: "SKIPPED" | "CANCELLED" }) {
  return (
    <article className="step-not-run turn-not-run" aria-label={`Step ${turn.step_id} ${status.toLowerCase()}`}>
      <p className="step-not-run-head">
        <code>{turn.step_id}</code>
        {turn.tool ? <span className="muted"> {turn.tool}</span> : null} <StepStatus status={status} /> · <Time at={turn.at} />
      </p>
      <p className="step-reason">
        <span className="cancel-reason-label">Reason</span> {turn.text || "No reason was recorded."}
      </p>
    </article>
  );
}

/** The run's end, and the outputs as they were evaluated then (each null with its reason where it could not be). */
export function OutcomeTurn({ turn }: { turn: StepTurn }) {
  const outputs = record(turn.data?.outputs);
  const reasons = record(turn.data?.output_errors) as Record<string, string>;
  return (
    <>
      <OutcomeLine at={turn.at} actor={turn.actor} outcome={turn.text} />
      {Object.keys(outputs).length > 0 ? (
        <article className="step-outputs" aria-label="Outputs">
          <h2 className="step-outputs-title">Outputs</h2>
          <ValueList values={outputs} reasons={reasons} label="Outputs" />
        </article>
      ) : null}
    </>
  );
}
