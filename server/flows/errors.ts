/** The plain flows' own refusals (versions, drafts): typed, with a message a person can act on; nothing was changed. */
import { Refusal } from "../lib/refusal";

export type FlowErrorCode = "bad_request" | "not_found" | "conflict" | "forbidden";

export class FlowError extends Refusal<FlowErrorCode> {
  override name = "FlowError";
}
