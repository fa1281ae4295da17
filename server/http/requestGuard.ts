/**
 * The one check every request passes before sign-in and any route or tRPC procedure runs (mounted in createApp): input the
 * server cannot take is refused here with a 4xx naming where it is, instead of failing deep inside as a 500.
 * - A body larger than MAX_BODY_BYTES: 413, read no further than the limit (a declared Content-Length above it is
 *   refused before reading anything).
 * - A body that is JSON (whatever its Content-Type, as the routes parse it) nested deeper than MAX_JSON_DEPTH, or with
 *   a NUL character or a lone UTF-16 surrogate in a string or key: 400 naming the field. Any other body with a NUL: 400.
 * - A NUL in a path segment (named by its route parameter) or a query parameter, and the JSON rules above for
 *   tRPC's `?input=`: 400.
 * A REST body that is JSON is parsed here once: the route's `readBody` takes the value (see PARSED_BODY).
 * REST answers are the usual `{ error, message, detail }`; tRPC answers are tRPC error shapes (one per call of a
 * batch), so the app shows the message. A body that is not JSON is left to the route, which says so.
 */
import type { Context, MiddlewareHandler } from "hono";
import { type Flaw, jsonFlaw, printable, textFlaw } from "../lib/inputCheck";
import { HttpError, PARSED_BODY } from "./errors";
import { builtinAgentPaths, docsPaths, pipelinePaths, stitchPaths, trpcEndpoint, workflowPaths } from "./paths";

export interface RequestGuardOptions {
  /** MAX_BODY_BYTES: the largest request body read. */
  maxBodyBytes: number;
}

type Status = 400 | 413;
interface Problem {
  status: Status;
  code: string;
  message: string;
}

const badInput = (code: string, where: string, problem: string): Problem => ({ status: 400, code, message: `${where} ${problem}` });
/** A JSON field is named by its path alone (`output.text`), as the engine names what it refuses; the whole value by `whole`. */
const fieldName = (flaw: Flaw, whole: string) => (flaw.path === "" ? whole : flaw.path);

/** Every route's pattern, segments split, fixed segments before parameters: how a path segment is named. */
const fixedSegments = (pattern: string[]) => pattern.filter((s) => !s.startsWith(":")).length;
const routePatterns: string[][] = [stitchPaths, pipelinePaths, builtinAgentPaths, workflowPaths, docsPaths]
  .flatMap((paths): unknown[] => Object.values(paths))
  .flatMap((path) => (path && typeof path === "object" && "pattern" in path ? [String(path.pattern).split("/")] : []))
  .sort((a, b) => fixedSegments(b) - fixedSegments(a));

function segmentName(segments: string[], index: number): string {
  const route = routePatterns.find((pattern) => pattern.length === segments.length && pattern.every((s, i) => s.startsWith(":") || s === segments[i] || i === index));
  const name = route?.[index];
  return name?.startsWith(":") ? `path parameter ${name.slice(1)}` : `path segment ${index} ("${printable(segments[index]!)}")`;
}

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

function urlProblem(c: Context, trpc: boolean): Problem | undefined {
  const url = new URL(c.req.url);
  const segments = url.pathname.split("/").map(decoded);
  for (const [index, segment] of segments.entries()) {
    const flaw = textFlaw(segment);
    if (flaw) return badInput("invalid_path", segmentName(segments, index), flaw);
  }
  for (const [key, value] of url.searchParams) {
    const flaw = textFlaw(key) ?? textFlaw(value);
    if (flaw) return badInput("invalid_query", `query parameter ${printable(key)}`, flaw);
    if (trpc && key === "input") {
      const found = jsonFlaw(parsedJson(value));
      if (found) return badInput("invalid_query", fieldName(found, "the tRPC input"), found.problem);
    }
  }
  return undefined;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body's bytes, or undefined once it is larger than `limit`: never more than `limit` bytes are held. */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads and checks the body, then leaves the bytes read for the route: REST routes read them from Hono's body cache,
 * tRPC (which reads the request itself) from a copy of the request. A body whose length is declared within the limit is
 * read at once, straight from the socket (the node adapter's direct read, no web stream); one sent in chunks without a
 * declared length is read through its stream, never more than the limit.
 */
async function bodyProblem(c: Context, limit: number, trpc: boolean): Promise<Problem | undefined> {
  const request = c.req.raw;
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const tooLarge: Problem = { status: 413, code: "body_too_large", message: `the request body is larger than ${limit} bytes (MAX_BODY_BYTES)` };
  const length = request.headers.get("content-length");
  if (Number(length ?? 0) > limit) return tooLarge;
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  if (length !== null) bytes = new Uint8Array(await request.arrayBuffer());
  else if (request.body) bytes = await readAtMost(request.body, limit);
  else return undefined;
  if (!bytes) return tooLarge;
  const text = new TextDecoder().decode(bytes);
  const value = parsedJson(text);
  // Hono keeps a body it has read as the promise of it (its type says the value): the route's `c.req.text()` answers it,
  // and `readBody` takes the value parsed here rather than parsing the text again.
  if (trpc) c.req.raw = new Request(request, { body: bytes });
  else {
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    if (value !== undefined) c.set(PARSED_BODY, { value });
  }
  const found = value === undefined ? undefined : jsonFlaw(value);
  if (found) return badInput("invalid_body", fieldName(found, trpc ? "the tRPC input" : "the body"), found.problem);
  if (value === undefined && text.includes("\u0000")) return badInput("invalid_body", "the body", textFlaw(text)!);
  return undefined;
}

/** tRPC's error shape for each call of the request (`/trpc/a.b,c.d?batch=1` is two), so the app's client reads it. */
function trpcAnswer(c: Context, problem: Problem): Response {
  const procedures = decoded(c.req.path.slice(trpcEndpoint.length + 1)).split(",");
  const code = problem.status === 413 ? { name: "PAYLOAD_TOO_LARGE", number: -32013 } : { name: "BAD_REQUEST", number: -32600 };
  const shape = (path: string | undefined) => ({
    error: {
      message: problem.message,
      code: code.number,
      data: { code: code.name, httpStatus: problem.status, path, zodError: null, refusalCode: problem.code, refusalDetails: null },
    },
  });
  const batch = c.req.query("batch") === "1";
  return c.json(batch ? procedures.map(shape) : shape(procedures[0]), problem.status);
}

export function requestGuard(options: RequestGuardOptions): MiddlewareHandler {
  return async (c, next) => {
    const trpc = c.req.path.startsWith(`${trpcEndpoint}/`);
    const problem = urlProblem(c, trpc) ?? (await bodyProblem(c, options.maxBodyBytes, trpc));
    if (!problem) return next();
    if (problem.status === 413) c.header("connection", "close");
    if (trpc) return trpcAnswer(c, problem);
    throw new HttpError(problem.status, problem.code, problem.message);
  };
}
