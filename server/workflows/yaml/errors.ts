/** The YAML workflows' refusals: an unknown workflow, run or node, a run or node not in a state for the request, a definition that does not load. */
import { Refusal } from "../../lib/refusal";
import type { DefinitionRow, RunRow, YamlDefinitionRow } from "../store";
import type { LocatedIssue } from "./definition";

export type WorkflowErrorCode = "not_found" | "conflict" | "bad_request" | "forbidden";

export class WorkflowError extends Refusal<WorkflowErrorCode> {
  override name = "WorkflowError";
}

/** A definition that does not load: 400 `invalid_workflow` with every problem located in the text. */
export class InvalidWorkflow extends Refusal<"bad_request"> {
  override name = "InvalidWorkflow";
  override readonly answerCode = "invalid_workflow";
  constructor(
    readonly issues: readonly LocatedIssue[],
    readonly warnings: readonly LocatedIssue[] = [],
  ) {
    super("bad_request", `the workflow has ${issues.length} problem${issues.length === 1 ? "" : "s"}: ${issues.map((i) => `${i.path || "(document)"} (line ${i.line}, column ${i.column}): ${i.message}`).join("; ")}`);
  }

  override get details() {
    return { issues: this.issues, warnings: this.warnings };
  }
}

/** The YAML workflow a definition row holds; none, or a step workflow's (its own front door serves it), is refused naming which. */
export function yamlDefinition(row: DefinitionRow | undefined, name: string): YamlDefinitionRow {
  if (!row) throw new WorkflowError("not_found", `no workflow named "${name}"`);
  if (row.format !== "yaml") throw new WorkflowError("not_found", `no YAML workflow named "${name}": it is a ${row.format} workflow`);
  return row;
}

/** A YAML workflow's run; none, or a step workflow's run, is refused. */
export function yamlRun(run: RunRow | undefined, runId: string): RunRow {
  if (!run) throw new WorkflowError("not_found", `no workflow run with id "${runId}"`);
  if (run.format !== "yaml") throw new WorkflowError("not_found", `no YAML workflow run with id "${runId}": it is a ${run.format} workflow's`);
  return run;
}
