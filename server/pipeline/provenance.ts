/**
 * What made an artifact version: an n8n (or other webhook) agent, a language model by name, the built-in offline
 * drafting, or a person. Recorded in the version's metadata (`made_by`) when the version is stored, shown on the
 * output in the app and written into the export bundle's manifest, so nobody takes a rule-based draft for a model's.
 *
 * What must hold: the kind is decided by the pipeline from how the output reached it, never taken from what an
 * outside agent claims about itself; only the built-in agents' own metadata (which never leaves this server when the
 * pipeline calls them directly) names the model or the offline drafting.
 */
import { z } from "zod";

/** What provenance reads of a pipeline agent (schemas.ts PipelineAgent), so this file needs nothing of schemas.ts, which imports it. */
type PipelineAgent = { name: string; builtin: boolean; webhook_url: string };

export const MadeBy = z.object({
  kind: z.enum(["n8n", "model", "offline", "person", "manual"]),
  /** A short label for the output's header: "n8n agent at n8n.example.com", "Model gpt-4o-mini", "Offline drafting". */
  label: z.string().min(1),
  /** One sentence for whoever reads further: for the offline drafting, that it stands in for a language model. */
  detail: z.string(),
});
export type MadeBy = z.infer<typeof MadeBy>;

export const OFFLINE_DETAIL =
  "Drafted offline by the built-in rules from the brief: a stand-in for a language model, not a model's writing. Configure LLM_BASE_URL (or an n8n agent) for model-written drafts.";

/** How an output reached the pipeline. */
export type OutputSource = "builtin" | "callback" | "manual";

const BuiltinMetadata = z.object({ generator: z.enum(["llm", "deterministic"]), model: z.string().optional() });

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function fromBuiltin(metadata: unknown): MadeBy | undefined {
  const read = BuiltinMetadata.safeParse(metadata);
  if (!read.success) return undefined;
  if (read.data.generator === "llm") {
    const model = read.data.model ?? "an unnamed model";
    return { kind: "model", label: `Model ${model}`, detail: `Written by the language model ${model} through the built-in agent.` };
  }
  return { kind: "offline", label: "Offline drafting (no language model)", detail: OFFLINE_DETAIL };
}

/** What made an output that arrives now: a built-in agent's answer says which of its two ways it drafted; anything else is the agent's webhook. */
export function madeByOf(agent: PipelineAgent, source: OutputSource, metadata: unknown): MadeBy {
  if (source === "manual") return { kind: "manual", label: "Stored by hand", detail: `Stored through POST /runs/{run_id}/artifacts as the ${agent.name} agent's output.` };
  if (source === "builtin" || agent.builtin) {
    const builtin = fromBuiltin(metadata);
    if (builtin) return builtin;
  }
  const host = hostOf(agent.webhook_url);
  return { kind: "n8n", label: `n8n agent at ${host}`, detail: `Sent by the ${agent.name} agent's webhook (${host}).` };
}

/** A reviewer's own version of the output. */
export function madeByPerson(name: string): MadeBy {
  return { kind: "person", label: `Edited by ${name}`, detail: `${name} edited the agent's output by hand before deciding.` };
}

/**
 * An artifact version's `made_by`, read back from its stored metadata; versions stored before it was recorded are
 * read from what their metadata says (a built-in agent's generator, a reviewer's edit) or else as a webhook agent's.
 */
export function madeByStored(agent: PipelineAgent | undefined, metadata: Record<string, unknown> | null | undefined): MadeBy {
  const recorded = MadeBy.safeParse(metadata?.made_by);
  if (recorded.success) return recorded.data;
  // schemas.ts `EditedBy`, read here by its name only: schemas.ts imports this module.
  const edited = z.object({ name: z.string() }).safeParse(metadata?.edited_by);
  if (edited.success) return madeByPerson(edited.data.name);
  const builtin = fromBuiltin(metadata);
  if (builtin) return builtin;
  return agent ? madeByOf(agent, "callback", metadata) : { kind: "n8n", label: "An agent's webhook", detail: "Sent by an agent's webhook." };
}
