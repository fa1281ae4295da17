/** The engine's refusals: typed, with a message a person can act on; nothing was changed. */
import { Refusal } from "../lib/refusal";
import type { GraphProblem } from "./graphProblems";
import type { RejectionCode } from "./transition";

export type EngineErrorCode = RejectionCode | "invalid_graph" | "unauthorized";

export class EngineError extends Refusal<EngineErrorCode> {
  override name = "EngineError";
}

/** A graph storing refuses: named by its first problem, with every problem listed in the answer (`problems`). */
export class GraphRefusal extends EngineError {
  constructor(readonly problems: GraphProblem[]) {
    super("invalid_graph", `graph: ${problems[0]!.message}`);
  }

  override get details() {
    return { problems: this.problems };
  }
}
