/**
 * For the tools' tests: a ToolContext with its own embedded graph in a temporary directory, loopback allowed (the
 * stand-ins listen on 127.0.0.1), and no LLM unless given; and a stand-in HTTP server on 127.0.0.1.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseOutboundAllow } from "../lib/outboundPolicy";
import { embeddedGraphStore } from "../workflows/steps/tools/graph/embedded";
import type { ToolContext } from "../workflows/steps/tools/tool";

export interface TestContext extends ToolContext {
  dir: string;
  cleanup(): Promise<void>;
}

export async function testContext(overrides: Partial<ToolContext> = {}): Promise<TestContext> {
  const dir = await mkdtemp(join(tmpdir(), "stitch-tools-"));
  const graph = embeddedGraphStore(join(dir, "graph"));
  return {
    llm: undefined,
    env: {},
    outbound: parseOutboundAllow("127.0.0.1/8"),
    signal: new AbortController().signal,
    graph,
    label: "step test",
    ...overrides,
    dir,
    async cleanup() {
      await graph.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface StandIn {
  /** http://127.0.0.1:<port> */
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that answers each request (its body read) with `answer`. */
export async function startStandIn(answer: (request: ReceivedRequest, response: ServerResponse) => void): Promise<StandIn> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const seen = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(seen);
      answer(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
