/**
 * The pipeline's protocol with its agents, both directions, in one place:
 * - out: an engine dispatch of an `agent_<slug>` Worker goes to the agent's webhook as `{ run_id, context,
 *   is_feedback, feedback, callback_url }`; the context holds what the agent's context rule names (domain, brief,
 *   earlier agents' latest artifacts), or, on a rejection, the agent's own last output;
 * - in: what agents post to their callback path, in the shapes n8n set-ups send.
 */
import { z } from "zod";
import type { Database } from "../../db/client";
import { isValidScopedToken, scopedToken } from "../engine/callbackToken";
import type { DispatchAdapter } from "../engine/dispatcher";
import { isPlainObject } from "../lib/json";
import type { AgentCall, PipelineAgent } from "./schemas";
import * as store from "./store";

// ---- Out: the agent call ----------------------------------------------------------------------------------------

export interface AgentProtocolOptions {
  /** The agents in force now: a run started under an older definition still calls an agent at its current webhook. */
  agents: readonly PipelineAgent[];
  /** Where an agent posts its output (the route's URL under NEXT_PUBLIC_BASE_URL). */
  callbackUrl: (slug: string) => string;
  /** PIPELINE_CALLBACK_SECRET: each call's callback_url carries `?token=`, bound to the run, the agent and the call. */
  callbackSecret?: string;
  /**
   * Performs a call to a built-in agent in this process (its draft, then its answer to the run), instead of POSTing
   * it: the dispatcher runs it under the dispatch's lease, so a process killed mid-draft leaves the call to another.
   * `call` is the agent's Worker's attempt the call belongs to.
   */
  performBuiltin?: (slug: string, body: AgentCall, call: number, signal: AbortSignal) => Promise<void>;
}

// ---- Callback tokens ---------------------------------------------------------------------------------------------

/**
 * With PIPELINE_CALLBACK_SECRET set, the callback_url of each call to an agent carries a token bound to the pipeline
 * run, the agent and the call (the attempt of the agent's Worker: a rejection, a retry or a timeout's retry calls the
 * agent anew), built like the engine's callback tokens. An agent that posts to the callback_url it was given (n8n
 * flows do) presents it without knowing it.
 */
const agentScope = (runId: string, slug: string, call: number) => ["pipeline-agent-callback", runId, slug, String(call)];

export const agentCallbackToken = (secret: string, runId: string, slug: string, call: number): string => scopedToken(secret, agentScope(runId, slug, call));

/** Which of the calls 1..`calls` of agent `slug` on run `runId` the token belongs to; undefined when none (forged, another run's or agent's). */
export function callOfToken(secret: string, runId: string, slug: string, calls: number, token: string | undefined): number | undefined {
  for (let call = calls; call >= 1; call--) if (isValidScopedToken(secret, agentScope(runId, slug, call), token)) return call;
  return undefined;
}

/**
 * The `agent` dispatch protocol: the engine hands the adapter a Worker's dispatch, and the adapter answers where
 * to POST and what (or, for a built-in agent, the work of performing the call here). On a review rejection the context is the agent's latest stored output (or the output the
 * engine kept, when none was stored) and `feedback` the reviewer's text.
 */
export function agentDispatchAdapter(database: Database, options: AgentProtocolOptions): DispatchAdapter {
  return async ({ runId: stitchRunId, payload }) => {
    const slug = String(payload.config.agent);
    const run = await database.run((db) => store.findRunByStitchRun(db, stitchRunId));
    if (!run) throw new Error(`no pipeline run for engine run ${stitchRunId}`);
    const agent = run.agents.find((a) => a.slug === slug);
    if (!agent) throw new Error(`no agent "${slug}" in the pipeline of run ${run.id}`);
    const latest = await database.run((db) => store.latestContents(db, run.id));
    const feedback = payload.feedback;
    // With feedback the agent revises its own latest output; a fork's first feedback to an agent that had no output
    // to revise goes with a first draft's context instead.
    const own = feedback ? (latest.get(agent.artifact_type) ?? feedback.previousOutput) : undefined;
    let revising = false;
    let context: Record<string, unknown>;
    if (feedback && isPlainObject(own)) (context = own), (revising = true);
    else {
      context = {};
      for (const key of agent.context) {
        if (key === "domain") context.domain = run.domain;
        else if (key === "brief") context.brief = run.brief;
        else context[key] = latest.get(key) ?? null;
      }
    }
    // The call's number travels in its callback_url, so a late answer to a call since replaced (an edited brief
    // restarts the agent) is refused even without a secret; with one, the token binds it too.
    const secret = options.callbackSecret;
    const callbackUrl = `${options.callbackUrl(slug)}?call=${payload.attempt}${secret ? `&token=${agentCallbackToken(secret, run.id, slug, payload.attempt)}` : ""}`;
    const body: AgentCall = {
      run_id: run.id, context, is_feedback: revising, feedback: feedback?.text ?? "", comments: feedback?.comments ?? [], callback_url: callbackUrl,
    };
    const current = options.agents.find((a) => a.slug === slug);
    const performBuiltin = options.performBuiltin;
    if (current?.builtin && performBuiltin) return { perform: (signal) => performBuiltin(slug, body, payload.attempt, signal) };
    return { url: current?.webhook_url ?? agent.webhook_url, body };
  };
}

// ---- In: the agent's callback -----------------------------------------------------------------------------------

export interface AgentOutput {
  content: Record<string, unknown>;
  metadata?: Record<string, unknown> | null;
}

export type AgentCallback = { runId: string; output: AgentOutput } | { runId: string; failed: string };

type Read = AgentCallback | { problem: { path: string[]; message: string } };

/**
 * Reads an agent's callback: the preferred `{ run_id, content, metadata }`, the `{ body: {...} }` wrapper some n8n
 * set-ups send, the fallback without `content` (everything but run_id is the content), content as JSON text, and
 * `{ run_id, status: "failed", error }` for an agent that gave up.
 */
function readAgentCallback(raw: unknown): Read {
  if (!isPlainObject(raw)) return { problem: { path: [], message: "expected a JSON object with run_id and content" } };
  const inner = isPlainObject(raw.body) && ("run_id" in raw.body || "content" in raw.body) ? raw.body : raw;
  const runId = inner.run_id;
  if (typeof runId !== "string" || runId.trim() === "") return { problem: { path: ["run_id"], message: "required (the run_id the agent was called with)" } };
  if (inner.status === "failed") {
    return { runId, failed: typeof inner.error === "string" && inner.error ? inner.error : "the agent reported a failure without an error message" };
  }
  let content: unknown;
  let metadata: Record<string, unknown> | null = null;
  if ("content" in inner) {
    content = inner.content;
    if (isPlainObject(inner.metadata)) metadata = inner.metadata;
  } else {
    const { run_id: _runId, ...rest } = inner;
    content = rest;
  }
  if (typeof content === "string") {
    try {
      content = JSON.parse(content);
    } catch {
      return { problem: { path: ["content"], message: "a string that is not JSON; send the agent's output as a JSON object" } };
    }
  }
  if (!isPlainObject(content) || Object.keys(content).length === 0) {
    return { problem: { path: ["content"], message: "expected the agent's output as a non-empty JSON object ({ artifact, changes_made, justification })" } };
  }
  return { runId, output: { content, metadata } };
}

/** The callback body as a schema, so the route validates it like any other body and a refusal names the field. */
export const AgentCallbackBody = z.unknown().transform((raw, ctx): AgentCallback => {
  const read = readAgentCallback(raw);
  if ("problem" in read) {
    ctx.addIssue({ code: "custom", path: read.problem.path, message: read.problem.message });
    return z.NEVER;
  }
  return read;
});
