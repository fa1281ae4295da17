/**
 * The benchmark's HTTP client: node:http requests over a pool of kept-alive sockets, for its driver (in the server's
 * process, so what it spends on HTTP is taken from the server) and its worker (in a process of its own). `fetch`
 * (undici's WHATWG layer: Request, Response, Headers, web streams) costs several times as much CPU per request as
 * `node:http`, and without a kept-alive pool every request would also pay a TCP handshake.
 */
import { Agent, type IncomingMessage, request } from "node:http";

export interface Answer {
  status: number;
  text: string;
}

export function readBody(message: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on("data", (chunk: Buffer) => chunks.push(chunk));
    message.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    message.on("error", reject);
  });
}

export interface KeptAliveClient {
  /** Sends one request and reads its whole answer. A failure on a reused socket says so in its message. */
  send(method: "GET" | "POST", url: string, headers: Record<string, string>, body?: string): Promise<Answer>;
  close(): void;
}

export function keptAliveClient(): KeptAliveClient {
  // Idle sockets are dropped after 2 s, before the server's 5 s keep-alive timeout closes them under us.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 2000 });
  return {
    send: (method, url, headers, body) =>
      new Promise((resolve, reject) => {
        const all = body === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) };
        const req = request(url, { method, agent, headers: all }, (res) => {
          void readBody(res).then((text) => resolve({ status: res.statusCode ?? 0, text }), reject);
        });
        req.on("error", (error: NodeJS.ErrnoException) => {
          if (!req.reusedSocket) error.message = `${error.message} (on a new connection)`;
          reject(error);
        });
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
