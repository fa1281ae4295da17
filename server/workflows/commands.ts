/**
 * The workflows' door, changes: both formats on one surface, each request handed to the front door it belongs to.
 * - a definition by its form: YAML text is a YAML workflow's, a JSON definition a step workflow's;
 * - a workflow named by the format it was registered in; a run by its format;
 * - decisions on a node (approve, reject, input) are the YAML workflows' alone: their commands refuse any other run,
 *   a step run with 409.
 * REST and tRPC both change through here, so a rule cannot hold on one and not the other.
 */
import type { Decider } from "../decisions/schemas";
import type { Identity } from "../people/schemas";
import type { WorkflowDoorQueries } from "./queries";
import type { AnyRegisteredWorkflow, AnyWorkflowRun, GivenDefinition, StartAnyRunBody } from "./schemas";
import type { StepRunView } from "./steps/schemas";
import type { StepWorkflows } from "./steps/steps";
import type { WorkflowRunView } from "./yaml/schemas";
import type { YamlWorkflows } from "./yaml/workflows";

export class WorkflowDoorCommands {
  constructor(
    private readonly queries: WorkflowDoorQueries,
    private readonly yaml: YamlWorkflows,
    private readonly steps: StepWorkflows,
  ) {}

  /** Registers the definition as the next version of its name, in its own format; a refused one stores nothing. */
  register(given: GivenDefinition): Promise<AnyRegisteredWorkflow> {
    return "yaml" in given ? this.yaml.commands.register(given.yaml) : this.steps.commands.register(given.definition);
  }

  /** Checks a definition and stores nothing. */
  validate(given: GivenDefinition) {
    return "yaml" in given ? this.yaml.commands.validate(given.yaml) : this.steps.commands.validate(given.definition);
  }

  /** Starts a run of the latest version of the workflow `name`. */
  async startRun(name: string, body: StartAnyRunBody, by: Decider): Promise<AnyWorkflowRun> {
    if ((await this.queries.formatOfWorkflow(name)) === "steps") return this.steps.commands.startRun(name, body.inputs, by);
    return this.yaml.commands.startRun(name, body, by);
  }

  /** A step workflow run of a stored workflow or of a definition given inline (which needs an operator: see the step commands). */
  execute(workflow: string | Record<string, unknown>, inputs: Record<string, unknown> | undefined, caller: Identity): Promise<StepRunView> {
    return this.steps.commands.execute(workflow, inputs, caller);
  }

  /** An operator cancels any run; whoever started a run (an analyst) her own: each front door's commands decide. */
  async cancel(runId: string, reason: string | undefined, by: Decider): Promise<AnyWorkflowRun> {
    return (await this.queries.formatOfRun(runId)) === "steps" ? this.steps.commands.cancel(runId, reason, by) : this.yaml.commands.cancel(runId, reason, by);
  }

  async resume(runId: string, actor: string | null): Promise<AnyWorkflowRun> {
    return (await this.queries.formatOfRun(runId)) === "steps" ? this.steps.commands.resume(runId, actor) : this.yaml.commands.resume(runId, actor);
  }

  /** Fires a failed node (a step of a step run) again. */
  async retry(runId: string, nodeId: string, actor: string | null): Promise<AnyWorkflowRun> {
    return (await this.queries.formatOfRun(runId)) === "steps" ? this.steps.commands.retryStep(runId, nodeId, actor) : this.yaml.commands.retry(runId, nodeId, actor);
  }

  approve(runId: string, nodeId: string, comment: string | undefined, by: Decider): Promise<WorkflowRunView> {
    return this.yaml.commands.approve(runId, nodeId, comment, by);
  }

  reject(runId: string, nodeId: string, reason: string | undefined, by: Decider): Promise<WorkflowRunView> {
    return this.yaml.commands.reject(runId, nodeId, reason, by);
  }

  input(runId: string, nodeId: string, text: string, by: Decider): Promise<WorkflowRunView> {
    return this.yaml.commands.input(runId, nodeId, text, by);
  }
}
