/**
 * A stand-in for the n8n the agent pipeline calls (n8n itself is outside this machine): a real HTTP server
 * with the seed's webhook paths that answers like an n8n webhook node and then POSTs the agent's output to the
 * pipeline's callback, as the existing n8n flows do. Tests choose per call how it calls back.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface AgentCall {
  path: string;
  slug: string;
  body: { run_id: string; context: Record<string, unknown>; is_feedback: boolean; feedback: string; callback_url?: string };
}

/** `held`: the preferred callback waits until `release()`, so a test can act while the agent is still at work. */
export type CallbackStyle = "preferred" | "wrapped" | "fallback" | "twice" | "none" | "held";

/** The n8n webhook paths the agents are deployed at, by agent slug. */
export const n8nPaths: Record<string, string> = {
  "/webhook/brief-to-requirements": "requirements",
  "/webhook/inception": "inception",
  "/webhook/HU": "agile",
  "/webhook/Diagramacion": "diagramacion",
  "/webhook/Pseudocodigo": "pseudocodigo",
  "/webhook/QA": "qa",
};

/** A plausible artifact of each agent's shape (the shapes real n8n agents send), marked with the call it answers. */
export function sampleContent(slug: string, call: AgentCall, round: number): Record<string, unknown> {
  const tag = `${slug} round ${round}${call.body.is_feedback ? ` after feedback: ${call.body.feedback}` : ""}`;
  const artifacts: Record<string, Record<string, unknown>> = {
    requirements: {
      problem_statement_refined: `Refined problem (${tag})`,
      identified_domains: ["payments", "identity"],
      core_capabilities: ["Sign up", "Pay a merchant", ...(call.body.is_feedback ? [`Feedback: ${call.body.feedback}`] : [])],
      external_dependencies: ["Card processor"],
      assumptions: ["Users have smartphones"],
    },
    inception: {
      product_vision: `Vision (${tag})`,
      scope_in: ["Wallet"], scope_out: ["Lending"], stakeholders: ["Users", "Merchants"],
      high_level_architecture: "Mobile app + API + PostgreSQL",
      risk_matrix: [{ risk: "Fraud", likelihood: "medium", impact: "high", mitigation: "Limits" }],
      functional_requirements: [{ id: "FR-001", title: "Pay", description: "Pay a merchant by QR" }],
      non_functional_requirements: [{ id: "NFR-001", title: "Latency", description: "p99 under 300 ms" }],
    },
    agile: { epics: [{ id: "EP-001", title: "Payments", user_stories: [{ id: "US-001", title: "Pay by QR", story: "As a user I want to pay by QR", acceptance_criteria: ["Paid"] }] }] },
    diagramacion: {
      entity_relationship_model: { entities: [{ name: "User", attributes: ["id", "name"] }], relationships: [] },
      mermaid_sequence_diagram: "sequenceDiagram\n  User->>App: Scan QR\n  App->>API: Pay\n  API-->>App: OK",
    },
    pseudocodigo: { user_story_pseudocode: { "US-001": "FUNCTION pay(qr)\n  VALIDATE qr\n  CHARGE user\nEND" } },
    qa: { test_suites: [{ id: "TS-001", name: "Payments", test_cases: [{ id: "TC-001", title: "Pay by QR", steps: ["Scan", "Confirm"], expected: "Paid" }] }] },
  };
  return {
    artifact: artifacts[slug] ?? { note: tag },
    changes_made: { added: call.body.is_feedback ? [call.body.feedback] : [], removed: [], modified: [] },
    justification: `Produced by the ${slug} agent (${tag}).`,
  };
}

export interface FakeN8n {
  url: string;
  calls: AgentCall[];
  /** How the next calls of an agent call back; default "preferred". */
  style: Record<string, CallbackStyle>;
  waitForCalls(count: number, timeoutMs?: number): Promise<AgentCall[]>;
  /** Sends the callbacks held back so far (style `held`). */
  release(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeN8n(pipelineUrl: () => string): Promise<FakeN8n> {
  const calls: AgentCall[] = [];
  const rounds = new Map<string, number>();
  const style: Record<string, CallbackStyle> = {};
  const held: (() => Promise<unknown>)[] = [];
  /** Tests waiting for a number of calls, resolved as the call that makes it arrives. */
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      const slug = n8nPaths[path];
      if (req.method !== "POST" || !slug) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: 404, message: `The requested webhook "${path}" is not registered.` }));
        return;
      }
      const call: AgentCall = { path, slug, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
      calls.push(call);
      for (const w of [...waiters]) if (calls.length >= w.count) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ message: "Workflow was started" }));
      const round = (rounds.get(`${call.body.run_id}/${slug}`) ?? 0) + 1;
      rounds.set(`${call.body.run_id}/${slug}`, round);
      const content = sampleContent(slug, call, round);
      const how = style[slug] ?? "preferred";
      // As the n8n flows do: the callback_url the call carries (with its token, when the pipeline has a callback secret).
      const target = call.body.callback_url ?? `${pipelineUrl()}/callbacks/agent/${slug}`;
      const send = (body: unknown) => fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (how === "held") return void held.push(() => send({ run_id: call.body.run_id, content }));
      setTimeout(async () => {
        if (how === "none") return;
        if (how === "wrapped") await send({ body: { run_id: call.body.run_id, content } });
        else if (how === "fallback") await send({ run_id: call.body.run_id, ...content });
        else await send({ run_id: call.body.run_id, content });
        if (how === "twice") await send({ run_id: call.body.run_id, content });
      }, 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    style,
    waitForCalls(count, timeoutMs = 20_000) {
      if (calls.length >= count) return Promise.resolve(calls.slice(0, count));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`n8n got ${calls.length} of ${count} calls within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(calls.slice(0, count))) });
      });
    },
    async release() {
      for (const callback of held.splice(0)) await callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
