/**
 * The step workflows' refusals: an unknown workflow or run, a run not in a state for the request, a definition that
 * does not validate, inputs that do not fit the definition. Problems are located by JSON path (definition.ts).
 */
import { Refusal } from "../../lib/refusal";
import type { DefinitionRow, RunRow, StepDefinitionRow } from "../store";
import type { Problem } from "./definition";

export type StepWorkflowErrorCode = "not_found" | "conflict" | "bad_request" | "forbidden";

export class StepWorkflowError extends Refusal<StepWorkflowErrorCode> {
  override name = "StepWorkflowError";
}

const listed = (problems: readonly Problem[]) => problems.map((p) => `${p.path || "(definition)"}: ${p.message}`).join("; ");
const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** A definition that does not validate: 400 `invalid_workflow`, every problem in `issues` as `{ path, message }`. Nothing was stored. */
export class InvalidStepWorkflow extends Refusal<"bad_request"> {
  override name = "InvalidStepWorkflow";
  override readonly answerCode = "invalid_workflow";
  constructor(readonly issues: readonly Problem[]) {
    super("bad_request", `the step workflow has ${counted(issues.length, "problem")}: ${listed(issues)}`);
  }

  override get details() {
    return { issues: this.issues };
  }
}

/** A run's inputs that do not fit the definition's `inputs`: 400 `invalid_inputs`, each at `inputs.<name>`. Nothing was started. */
export class InvalidInputs extends Refusal<"bad_request"> {
  override name = "InvalidInputs";
  override readonly answerCode = "invalid_inputs";
  constructor(
    readonly workflow: string,
    readonly issues: readonly Problem[],
  ) {
    super("bad_request", `the inputs do not fit workflow "${workflow}" (${counted(issues.length, "problem")}): ${listed(issues)}`);
  }

  override get details() {
    return { issues: this.issues };
  }
}

/** The step workflow a definition row holds; none, or a YAML workflow's (its own front door serves it), is refused naming which. */
export function stepDefinition(row: DefinitionRow | undefined, name: string): StepDefinitionRow {
  if (!row) throw new StepWorkflowError("not_found", `no step workflow named "${name}"`);
  if (row.format !== "steps") throw new StepWorkflowError("not_found", `no step workflow named "${name}": it is a ${row.format} workflow`);
  return row;
}

/** A step workflow's run; none, or a YAML workflow's run, is refused. */
export function stepRun(run: RunRow | undefined, runId: string): RunRow {
  if (!run) throw new StepWorkflowError("not_found", `no step workflow run with id "${runId}"`);
  if (run.format !== "steps") throw new StepWorkflowError("not_found", `no step workflow run with id "${runId}": it is a ${run.format} workflow's`);
  return run;
}
