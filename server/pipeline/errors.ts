/** The agent pipeline's refusals: a run or agent that does not exist, or a run not in a state for the request. */
import { Refusal } from "../lib/refusal";

export type PipelineErrorCode = "not_found" | "conflict" | "bad_request" | "unauthorized" | "forbidden" | "unprocessable";

export class PipelineError extends Refusal<PipelineErrorCode> {
  override name = "PipelineError";
}

export const runNotFound = (runId: string) => new PipelineError("not_found", `no run with id "${runId}"`);
