/**
 * `llm.generate`: one prompt to the configured chat endpoint (LLM_BASE_URL...), or with none the offline responder
 * of server/workflows/runtime/llm, whose answer says it is offline (`responder: "offline"`).
 */
import { z } from "zod";
import { complete } from "../../runtime/llm";
import { defineTool } from "./tool";

export const Responder = z.enum(["llm", "offline"]);

export default defineTool({
  name: "llm.generate",
  description: "Sends a prompt (with an optional system text and model) to the configured LLM and answers { text, responder }; with no LLM configured, a deterministic offline answer (responder \"offline\").",
  params: z.object({
    prompt: z.string().min(1, "prompt must not be empty"),
    system: z.string().optional(),
    /** Overrides LLM_MODEL. */
    model: z.string().min(1).optional(),
  }),
  result: z.object({ text: z.string(), responder: Responder }),
  defaultTimeoutMs: 180_000,
  async run({ prompt, system, model }, context) {
    const answer = await complete({ prompt, system, model }, context.llm, { signal: context.signal, label: `${context.label} (llm.generate)` });
    return { text: answer.text, responder: answer.responder };
  },
});
