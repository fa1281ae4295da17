/** The `agent` dispatch protocol: the engine's dispatch of an `agent_<slug>` Worker goes out as the seed's agent call (8.1). */
import type { DispatchAdapter } from "../engine/dispatcher";
import type { PipelineService } from "./service";

export function agentDispatchAdapter(pipeline: PipelineService): DispatchAdapter {
  return async ({ runId, payload }) => {
    const slug = String(payload.config.agent);
    return pipeline.agentRequest(runId, slug, payload.feedback ? { text: payload.feedback.text, previousOutput: payload.feedback.previousOutput } : undefined);
  };
}
