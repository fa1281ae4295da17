/** Inline review's refusals: an unknown decision or comment, an anchor that names no part, an edit that does not fit. */
import { Refusal } from "../lib/refusal";

export type ReviewErrorCode = "not_found" | "bad_request" | "forbidden" | "conflict";

export class ReviewError extends Refusal<ReviewErrorCode> {
  override name = "ReviewError";
}
