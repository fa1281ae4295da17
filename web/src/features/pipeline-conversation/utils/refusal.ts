/**
 * What a reviewer whose decision was refused reads on its card: which output it was on, who decided it first and
 * where the run is now ("Rita Ramos approved Requirements v1; the run moved on to Inception."), and the version the
 * same output waits in now, when there is one to send the same text against. Derived from the conversation alone.
 */
import type { AgentRef, Conversation, ConversationTurn } from "../../../lib/trpc";
import { agentOf } from "./agentOf";

/** The output a pipeline decision is on, as a refused decision's target: "<agent slug>:<version>". */
export const outputTarget = (output: { agent: string; version: number }) => `${output.agent}:${output.version}`;

export interface RefusalContext {
  /** "Requirements v1". */
  subject: string;
  change: string | null;
  /** The same agent's output waiting for review now in a later version, to send the same text against. */
  newer: { agent: AgentRef; version: number } | null;
}

export function refusalContext({ run, agents, turns }: Pick<Conversation, "run" | "agents" | "turns">, target: string): RefusalContext {
  const [slug = "", versionText = "0"] = target.split(":");
  const version = Number(versionText);
  const agent = agents.find((a) => a.slug === slug) ?? null;
  const name = agent?.name ?? slug;
  const subject = `${name} v${version}`;
  const ofAgent = (turn: ConversationTurn) => agentOf(agents, turn.node)?.slug === slug;
  const outputs = turns.flatMap((t) => (t.kind === "output" && ofAgent(t) ? [t] : []));
  const reviewed = turns.findIndex((t) => t.kind === "output" && ofAgent(t) && t.body.version === version);
  const after = reviewed >= 0 ? turns.slice(reviewed + 1) : [];
  const decided = after.find((t) => (t.kind === "decided" && ofAgent(t)) || (t.kind === "outcome" && t.body.status === "cancelled"));
  const who = (actor: string | null) => actor ?? "Someone";
  const parts: string[] = [];
  if (decided?.kind === "decided" && decided.body.decision === "approve") parts.push(`${who(decided.who)} approved ${subject}`);
  else if (decided?.kind === "decided") parts.push(`${who(decided.who)} requested changes to ${subject}`);
  else if (decided?.kind === "outcome") parts.push(`${who(decided.who)} cancelled the run`);

  const latestVersion = outputs.at(-1)?.body.version ?? version;
  const current = run.current_agent;
  const { phase } = run.state;
  const newer = phase === "waiting_approval" && current?.slug === slug && latestVersion > version ? { agent: current, version: latestVersion } : null;
  if (newer) parts.push(`${name} v${latestVersion} waits for review now`);
  else if (phase === "completed") parts.push("the run completed");
  else if (phase === "cancelled" && decided?.kind !== "outcome") parts.push("the run was cancelled");
  else if (current && current.slug !== slug) parts.push(`the run moved on to ${current.name}`);
  else if (current && phase === "retrying") parts.push(`${name} is revising it`);
  if (parts.length === 0) return { subject, change: null, newer };
  const sentence = parts.join("; ");
  // A person's name is written as it is; a sentence about the run starts with a capital.
  const change = decided ? sentence : `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}`;
  return { subject, change: `${change}.`, newer };
}
