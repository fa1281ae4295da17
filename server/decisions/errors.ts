/** The decisions' refusals: a decision that does not exist, a cursor that is not one of the inbox's. */
import { Refusal } from "../lib/refusal";

export type DecisionErrorCode = "not_found" | "bad_request" | "forbidden" | "conflict";

export class DecisionError extends Refusal<DecisionErrorCode> {
  override name = "DecisionError";
}
