/** The engine's refusals: typed, with a message a person can act on; nothing was changed. */
import { Refusal } from "../lib/refusal";
import type { RejectionCode } from "./transition";

export type EngineErrorCode = RejectionCode | "invalid_graph" | "unauthorized";

export class EngineError extends Refusal<EngineErrorCode> {
  override name = "EngineError";
}
