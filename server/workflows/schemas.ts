/**
 * What clients send to and read from the workflows' door (server/workflows/commands.ts and queries.ts), which serves
 * both formats on the same paths and procedures: defined once as zod schemas from each format's own, the types inferred.
 */
import { z } from "zod";
import * as steps from "./steps/schemas";
import * as yaml from "./yaml/schemas";

/** A definition as a client gives it: YAML text as `{ yaml }`, or a step workflow's JSON definition as `{ definition }`. */
export const GivenDefinition = z.union([
  z.object({ yaml: z.string().min(1, "yaml must not be empty") }),
  z.object({ definition: z.record(z.string(), z.unknown(), { error: "definition must be a step workflow's definition (an object with id and steps)" }) }),
]);
export type GivenDefinition = z.infer<typeof GivenDefinition>;

/** Starting a run of either format: a YAML workflow reads `message` and `inputs`, a step workflow its `inputs`. */
export const StartAnyRunBody = yaml.StartRunBody.extend(steps.StartStepRunBody.shape);
export type StartAnyRunBody = z.infer<typeof StartAnyRunBody>;

// Answers of the door: the YAML workflow's shape, or the step workflow's.
export const AnyRegisteredWorkflow = z.union([yaml.RegisteredWorkflow, steps.RegisteredStepWorkflow]).describe("A YAML workflow (`format: yaml`) or a step workflow (`format: steps`).");
export type AnyRegisteredWorkflow = z.infer<typeof AnyRegisteredWorkflow>;
export const AnyWorkflowDetail = z.union([yaml.WorkflowDetail, steps.StepWorkflowDetail]).describe("A YAML workflow with its text, or a step workflow with its normalised definition.");
export type AnyWorkflowDetail = z.infer<typeof AnyWorkflowDetail>;
export const AnyWorkflowRun = z.union([yaml.WorkflowRunView, steps.StepRunView]).describe("A YAML workflow's run (`nodes`), or a step workflow's (`steps`, the `run_steps` rows, and `outputs`).");
export type AnyWorkflowRun = z.infer<typeof AnyWorkflowRun>;
export const AnyWorkflowRunSummary = z.union([yaml.WorkflowRunSummary, steps.StepRunSummary]).describe("A YAML workflow's run, or a step workflow's (`format: steps`).");
export type AnyWorkflowRunSummary = z.infer<typeof AnyWorkflowRunSummary>;
export const AnyConversation = z.union([yaml.WorkflowConversation, steps.StepConversation]);
export type AnyConversation = z.infer<typeof AnyConversation>;
