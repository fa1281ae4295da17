/**
 * "Re-run failed runs…" (operators): the flow's runs that failed since a time (the last 24 hours unless changed) are
 * first counted and named, each with the node it will be forked at or why it will not be; "Fork N failed runs" then
 * forks them (each at its failed node, as POST /api/runs/fork-failed does), and the result links to each fork and says
 * why any run was refused. The time typed is kept in the tab until the forks are made; changing it counts again.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { Link, paths } from "../../../lib/router";
import { formatDateTime } from "../../../lib/time";
import type { RouterOutputs } from "../../../lib/trpc";
import { useDraft } from "../../../lib/useDraft";
import { useForkFailedRuns } from "../api/runs";

type Failures = RouterOutputs["engine"]["runs"]["forkFailed"];
type FailedRun = Failures["runs"][number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** A time as a datetime-local input shows it: in the person's time zone, to the minute. */
export function localInputValue(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** What a datetime-local input holds, as the API's time (UTC); null when it is not a time. */
export function sinceOf(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const shortId = (runId: string) => runId.slice(0, 8);

function Counted({ counted, since }: { counted: Failures; since: string }) {
  const forkable = counted.runs.filter((run) => run.refused === null);
  const when = formatDateTime(since);
  if (counted.count === 0) return <p>No run of this flow failed since {when} (and is failed still): there is nothing to fork.</p>;
  return (
    <>
      <p>
        {plural(counted.count, "run")} failed since {when}
        {forkable.length === counted.count ? ": they will be forked at their failed node." : `: ${plural(forkable.length, "run")} will be forked at ${forkable.length === 1 ? "its" : "their"} failed node.`}
      </p>
      <ul className="fork-failed-list">
        {counted.runs.map((run) => (
          <li key={run.run_id}>
            <Link to={paths.flowRun(run.run_id)}>run {shortId(run.run_id)}</Link>
            {run.refused === null ? <> at <code>{run.node_id}</code></> : <>: will not be forked, {run.refused}</>}
          </li>
        ))}
      </ul>
    </>
  );
}

function Forked({ result }: { result: Failures }) {
  const made = result.runs.filter((run): run is FailedRun & { fork: NonNullable<FailedRun["fork"]> } => run.fork !== null);
  const refused = result.runs.filter((run) => run.fork === null);
  return (
    <>
      <p>
        {made.length === 0 ? "No run was forked." : `Forked ${plural(made.length, "run")}.`}
        {refused.length > 0 ? ` ${plural(refused.length, "run was", "runs were")} refused.` : ""}
      </p>
      <ul className="fork-failed-list">
        {made.map((run) => (
          <li key={run.run_id}>
            <Link to={run.fork.path}>Fork {shortId(run.fork.run_id)}</Link> of <Link to={paths.flowRun(run.run_id)}>run {shortId(run.run_id)}</Link> at <code>{run.node_id}</code>
          </li>
        ))}
        {refused.map((run) => (
          <li key={run.run_id}>
            <Link to={paths.flowRun(run.run_id)}>Run {shortId(run.run_id)}</Link> was not forked: {run.refused ?? "refused"}
          </li>
        ))}
      </ul>
    </>
  );
}

export function ForkFailedRuns({ flowId, onClose }: { flowId: string; onClose(): void }) {
  const [initial] = useState(() => localInputValue(new Date(Date.now() - DAY_MS)));
  const [kept, setKept, clear] = useDraft(`fork-failed:${flowId}:since`);
  const value = kept || initial;
  const since = sinceOf(value);
  const count = useForkFailedRuns();
  const fork = useForkFailedRuns();
  const [touched, setTouched] = useState(false);
  const outcomeRef = useRef<HTMLHeadingElement>(null);
  // The count answers for the time it was asked with: another time is counted again before anything is forked.
  const counted = count.data && count.variables?.since === since ? count.data : null;
  const forkable = counted?.runs.filter((run) => run.refused === null).length ?? 0;
  const stage = fork.data ? "forked" : counted ? "counted" : null;
  useEffect(() => {
    if (stage) outcomeRef.current?.focus();
  }, [stage]);

  const onCount = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!since) return;
    fork.reset();
    count.mutate({ definition: flowId, since, dry_run: true });
  };
  const onFork = () => {
    if (!counted || !since) return;
    fork.mutate({ definition: flowId, since, dry_run: false }, { onSuccess: clear });
  };
  return (
    <section className="designer-dialog fork-failed" aria-labelledby="fork-failed-title">
      <h2 id="fork-failed-title" className="inspector-subtitle">Re-run failed runs</h2>
      <form onSubmit={onCount} aria-label="Find the failed runs">
        <Field
          label="Failed since"
          type="datetime-local"
          className="field"
          value={value}
          onChange={(e) => {
            setKept(e.target.value);
            fork.reset();
          }}
          hint="The runs of this flow that failed at or after this time (your time zone), and are failed still. Nothing is forked until you confirm."
          error={touched && !since ? "Pick a date and a time." : null}
          announce="polite"
          disabled={fork.isPending}
        />
        {count.error ? <ErrorNotice title="The failed runs could not be counted" error={count.error} /> : null}
        <div className="dialog-actions">
          <button type="submit" className={`button ${counted ? "button-secondary" : "button-primary"}`} disabled={count.isPending || fork.isPending}>
            {count.isPending ? "Counting…" : counted ? "Count again" : "Find the failed runs"}
          </button>
          <button type="button" className="button button-secondary" onClick={onClose} disabled={fork.isPending}>
            {fork.data ? "Close" : "Close without forking"}
          </button>
        </div>
      </form>
      {stage ? (
        <div className="fork-failed-outcome" aria-live="polite">
          <h3 ref={outcomeRef} tabIndex={-1} className="inspector-subtitle">
            {stage === "forked" ? "Forks made" : "Failed runs found"}
          </h3>
          {fork.data ? <Forked result={fork.data} /> : counted && since ? <Counted counted={counted} since={since} /> : null}
          {fork.error ? <ErrorNotice title="The failed runs were not forked" error={fork.error} /> : null}
          {stage === "counted" && forkable > 0 ? (
            <div className="dialog-actions">
              <button type="button" className="button button-primary" onClick={onFork} disabled={fork.isPending} aria-busy={fork.isPending}>
                {fork.isPending ? "Forking…" : `Fork ${plural(forkable, "failed run")}`}
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
