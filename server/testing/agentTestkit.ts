/**
 * For tests: briefs from different domains; the six built-in agents run in pipeline order with the
 * context the pipeline gives each (the earlier agents' whole content envelopes); and a stand-in
 * LLM, since a model is outside this machine.
 */
import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { draft } from "../pipeline/agents/drafts";
import type { AgentRequest } from "../pipeline/agents/request";
import type { ArtifactType, EnvelopeOf } from "../pipeline/artifacts";

export const BRIEFS = {
  superApp: {
    domain: "super-app",
    brief:
      "We are building a super-app where customers can order food, book rides and pay bills. Merchants manage their catalogs and track orders. " +
      "Drivers should be able to accept ride requests and see the route on a map. Payments must go through Stripe. " +
      "The app must support 100k concurrent users and respond within 300 ms.",
  },
  clinic: {
    domain: "clinic",
    brief:
      "Patients can book appointments with doctors and receive SMS reminders through Twilio. Doctors manage their schedules and write prescriptions. " +
      "Administrators should be able to export monthly reports. All patient data must be encrypted and the system must comply with HIPAA.",
  },
  /** One sentence, three groups, a colon, a passive ("get paid") and a verb phrase without its actor ("and pay by card"). */
  rideHailing: {
    domain: "",
    brief:
      "A ride-hailing app for a mid-sized city: riders book trips and pay by card, drivers accept trips and get paid weekly, and operations staff handle disputes.",
  },
  /** "where" introducing the clauses; a role outside the known words (receptionists). */
  clinicPortal: {
    domain: "",
    brief: "A clinic booking portal where patients book appointments online, doctors manage their schedules, and receptionists confirm visits by SMS.",
  },
  /**
   * A brief as an analyst writes one: a product description that starts "A web app for", relative clauses ("members who
   * return late twice"), "see who has what", a rule, a report, a payment provider and an email reminder.
   */
  toolLibrary: {
    domain: "tool-library",
    brief:
      "A web app for a neighbourhood tool library run by volunteers. Members browse the catalogue, reserve a tool for up to three days and get an email reminder " +
      "the day before it is due back. Volunteers check tools out and in at the shed, mark damaged tools, and see who has what. Members who return late twice are " +
      "suspended for a month. The coordinator manages volunteers and exports a weekly overdue list as CSV. Payments of the yearly membership fee go through Stripe.",
  },
  /** No product description; a group named in the singular ("the back office reconciles ..."). */
  streetVendors: {
    domain: "",
    brief: "Street vendors accept QR payments and see daily totals; the back office reconciles settlements with the bank every night.",
  },
} as const;

/** The default pipeline's steps in order, as a bundle names them. */
export const PIPELINE_STEPS = [
  { artifact_type: "requirements", name: "Requirements" },
  { artifact_type: "inception", name: "Inception" },
  { artifact_type: "agile", name: "User stories" },
  { artifact_type: "diagramacion", name: "Diagrams" },
  { artifact_type: "pseudocodigo", name: "Pseudocode" },
  { artifact_type: "qa", name: "QA" },
];

export type PipelineEnvelopes = { [T in ArtifactType]: EnvelopeOf<T> };

export function firstCall(context: Record<string, unknown>): AgentRequest {
  return { run_id: "RUN_TEST", context, is_feedback: false, feedback: "" };
}

export function feedbackCall(previous: unknown, feedback: string): AgentRequest {
  return { run_id: "RUN_TEST", context: previous as Record<string, unknown>, is_feedback: true, feedback };
}

export function runPipeline(domain: string, brief: string): PipelineEnvelopes {
  const requirements = draft("requirements", firstCall({ domain, brief }));
  const inception = draft("inception", firstCall({ domain, brief, requirements }));
  const agile = draft("agile", firstCall({ requirements, inception }));
  const diagramacion = draft("diagramacion", firstCall({ requirements, inception, agile }));
  const pseudocodigo = draft("pseudocodigo", firstCall({ requirements, agile, diagramacion }));
  const qa = draft("qa", firstCall({ requirements, inception, agile, diagramacion, pseudocodigo }));
  return { requirements, inception, agile, diagramacion, pseudocodigo, qa };
}

// ---- a stand-in LLM: a real HTTP server speaking the OpenAI chat-completions protocol ------------------

export interface ChatRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; messages?: { role: string; content: string }[]; response_format?: { type: string }; [key: string]: unknown };
}

/** What the stand-in answers: a status and a JSON body, or `"hang"` to never answer. */
export type ChatAnswer = { status: number; body: unknown } | "hang";

export interface ChatServer {
  /** Base URL as LLM_BASE_URL would hold it, ending in /v1. */
  baseUrl: string;
  received: ChatRequest[];
  close(): Promise<void>;
}

/** An OpenAI-style completion whose message content is `content`. */
export function completion(content: string, options: { finish_reason?: string; refusal?: string; model?: string } = {}): { status: number; body: unknown } {
  return {
    status: 200,
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      model: options.model ?? "test-model",
      choices: [{ index: 0, finish_reason: options.finish_reason ?? "stop", message: { role: "assistant", content, ...(options.refusal ? { refusal: options.refusal } : {}) } }],
    },
  };
}

export async function startChatServer(answer: (request: ChatRequest) => ChatAnswer): Promise<ChatServer> {
  const received: ChatRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request: ChatRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: text ? (JSON.parse(text) as ChatRequest["body"]) : {} };
      received.push(request);
      if (req.url !== "/v1/chat/completions" || req.method !== "POST") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const reply = answer(request);
      if (reply === "hang") return;
      res.writeHead(reply.status, { "content-type": "application/json" }).end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
