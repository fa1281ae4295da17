/**
 * What a step run's conversation draws its own way (see `stepTurnAdapter`): the inputs it was started with, a step's
 * card (its tool, the params as resolved, the attempts that failed and were tried again, its result, failure or
 * cancellation, and Retry while its failure can be retried), a step skipped or cancelled before it started, a fork's
 * first turn (where it came from, with a link to that run, and the inputs it runs with), and the outcome with the
 * outputs. Everything a tool answered is shown as text.
 */
import { CancelledNote, HumanTurn, OutcomeLine, type RetryControl, RetryAction, Time, TypingDots, cutLongText as cut } from "../../../components/Chat";
import { GlyphAvatar } from "../../../components/AgentAvatar";
import { NodeMessage } from "../../../components/NodeTurns";
import { Link, paths } from "../../../lib/router";
import type { RunStepStatus } from "../../../lib/trpc";
import { describeResult } from "../utils/result";
import { type ForkedStepTurn, type StepEpisode, type StepTurnOf, attemptsOf } from "../utils/turns";
import { StepStatus, Value, ValueList } from "./StepParts";

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** The fork's first turn: the step and run it came from, who forked it, and the inputs it runs with. */
export function ForkedTurn({ turn }: { turn: ForkedStepTurn }) {
  const { from_run_id: from, value: inputs, edited } = turn.body;
  const step = turn.node?.label ?? "";
  return (
    <HumanTurn
      label={`Forked from ${step}`}
      author={
        <span className="message-author">
          Forked from {step} of <Link to={paths.steps.run(from)}>run {from.slice(0, 8)}</Link>
        </span>
      }
      actor={turn.who}
      at={turn.at}
      className="turn-forked"
    >
      <p className="muted small">The steps before {step} were copied from that run, not run again; {step} and what follows ran afresh.</p>
      {Object.keys(inputs).length === 0 ? null : <ValueList values={inputs} label={edited ? "Inputs, edited" : "Inputs"} />}
    </HumanTurn>
  );
}

export function InputsTurn({ turn }: { turn: StepTurnOf<"input"> }) {
  const inputs = turn.body.value;
  return (
    <HumanTurn label="Inputs" author={<span className="message-author">Inputs</span>} actor={turn.who} at={turn.at} className="step-inputs">
      {Object.keys(inputs).length === 0 ? <p className="muted small">The run was started without inputs.</p> : <ValueList values={inputs} label="Inputs" />}
    </HumanTurn>
  );
}

export function ToolAvatar({ tool }: { tool: string | null }) {
  const family = tool?.split(".")[0] ?? "";
  return <GlyphAvatar className={`step-avatar step-avatar-${family || "none"}`} glyph={family.charAt(0).toUpperCase() || "•"} />;
}

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

const endStatus = { output: "COMPLETED", failed: "FAILED", skipped: "CANCELLED" } as const satisfies Record<NonNullable<StepEpisode["end"]>["kind"], RunStepStatus>;

/** A step's attempt at its work as one card; `live` while the step is at work, `retry` while its failure can be retried. */
export function StepTurnCard({ episode, live, retry }: { episode: StepEpisode; live: boolean; retry: RetryControl | null }) {
  const { stepId, tool, end } = episode;
  const status: RunStepStatus = end ? endStatus[end.kind] : "RUNNING";
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
          <StepResult output={end.body.value} label={`Result of ${stepId}`} />
        </>
      ) : null}
      {end?.kind === "failed" ? (
        <div className="step-error" role={retry ? "alert" : undefined}>
          <h3 className="step-label">Error</h3>
          <p className="error-text">{end.body.error || "No error was recorded."}</p>
          {retry ? <RetryAction retry={retry} /> : null}
        </div>
      ) : null}
      {end?.kind === "skipped" ? <p className="step-reason">{end.body.reason || "Cancelled with the run."}</p> : null}
    </NodeMessage>
  );
}

/** A step that never started: skipped because what it depends on failed, or cancelled with the run. */
export function StepNotRun({ turn }: { turn: StepTurnOf<"skipped"> }) {
  const status = turn.body.status === "skipped" ? "SKIPPED" : "CANCELLED";
  const step = turn.node?.label ?? "";
  return (
    <article className="step-not-run turn-not-run" aria-label={`Step ${step} ${status.toLowerCase()}`}>
      <p className="step-not-run-head">
        <code>{step}</code>
        {turn.node?.type ? <span className="muted"> {turn.node.type}</span> : null} <StepStatus status={status} /> · <Time at={turn.at} />
      </p>
      <p className="step-reason">
        <span className="cancel-reason-label">Reason</span> {turn.body.reason || "No reason was recorded."}
      </p>
    </article>
  );
}

/**
 * The run's end: who cancelled it and why (a cancellation is told once, in its outcome), how it ended, and the outputs
 * as they were evaluated then (each null with its reason where it could not be).
 */
export function OutcomeTurn({ turn }: { turn: StepTurnOf<"outcome"> }) {
  const { status, reason, outputs, output_errors: reasons } = turn.body;
  const cancelled = status === "cancelled";
  return (
    <>
      {cancelled ? <CancelledNote at={turn.at} actor={turn.who} reason={reason} /> : null}
      <OutcomeLine at={turn.at} actor={cancelled ? null : turn.who} outcome={status} />
      {outputs && Object.keys(outputs).length > 0 ? (
        <article className="step-outputs" aria-label="Outputs">
          <h2 className="step-outputs-title">Outputs</h2>
          <ValueList values={outputs} reasons={reasons} label="Outputs" />
        </article>
      ) : null}
    </>
  );
}
