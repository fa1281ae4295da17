/**
 * The answers a page comes with (web/src/lib/pageData.ts): the app draws the signed-in person's conversation from them
 * at once, without asking the server for who is signed in or for the conversation, and remembers the session's CSRF
 * token, which comes masked. Anything else the element holds is ignored, and without the element the app asks as before.
 */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppProvider } from "./provider";
import { ConversationView } from "../features/pipeline-conversation/components/ConversationView";
import { AuthGate } from "../features/people/components/AuthGate";
import { agents, conversation, envelope, inceptionArtifact, requirementsArtifact, runView, turns } from "../testing/fixtures";
import { signedIn } from "../testing/people";
import { pageDataElementId } from "../lib/pageData";
import { rememberCsrfToken, sessionHeaders } from "../lib/session";
import type { AuthStatus } from "../lib/trpc";

const csrfToken = "csrf-0123456789abcdef";

/** The token masked as the server masks it (server/trpc/pageQueries.ts maskCsrfToken). */
function masked(token: string): string {
  const bytes = new TextEncoder().encode(token);
  const pad = bytes.map((_, i) => (i * 37 + 11) % 256);
  const hex = (values: Uint8Array) => [...values].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex(pad)}.${hex(bytes.map((byte, i) => byte ^ pad[i]!))}`;
}

// A run that has ended: its conversation is not read again when its first change marker arrives (an active one's is, once).
const run = runView({ state: { phase: "completed", agent: null }, current_agent: null, is_waiting_for_user: false });
const shown = conversation(run, [
  turns.brief(),
  turns.artifact("a1", agents[0]!, 1, envelope(requirementsArtifact)),
  turns.approval("ap1", agents[0]!),
  turns.artifact("a2", agents[1]!, 1, envelope(inceptionArtifact)),
]);
const status: AuthStatus = { needsSetup: false, me: signedIn("reviewer"), csrfToken: null };

function carry(page: unknown) {
  const element = document.createElement("script");
  element.type = "application/json";
  element.id = pageDataElementId;
  element.textContent = JSON.stringify(page);
  document.body.append(element);
}

/** Every request the app sends; none is answered, so what is on screen came with the page. */
const requested: string[] = [];

beforeEach(() => {
  requested.length = 0;
  rememberCsrfToken(null);
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string | URL | Request) => {
      requested.push(String(url instanceof Request ? url.url : url));
      return new Promise<Response>(() => undefined);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.getElementById(pageDataElementId)?.remove();
});

const renderConversation = () =>
  render(
    <AppProvider>
      <AuthGate>
        <ConversationView runId="RUN_1" agents={[]} />
      </AuthGate>
    </AppProvider>,
  );

/** The procedures of the tRPC requests sent so far. */
const procedures = () => requested.flatMap((url) => decodeURIComponent(new URL(url, "http://app").pathname).replace(/^\/trpc\//, "").split(","));

describe("the answers the page came with", () => {
  it("draw the conversation at once, without asking who is signed in or for the conversation", async () => {
    carry({
      queries: [
        { path: "auth.status", data: status },
        { path: "pipeline.conversation", input: { runId: "RUN_1" }, data: shown },
        { path: "pipeline.changes", input: { runId: "RUN_1" }, data: { run_id: "RUN_1", marker: "m1", active: false } },
      ],
      csrf: masked(csrfToken),
    });
    renderConversation();
    // On the first render: no spinner in between.
    expect(screen.getByRole("article", { name: "Requirements output, version 1" })).toBeTruthy();
    expect(screen.getByRole("article", { name: "Inception output, version 1" })).toBeTruthy();
    expect(document.getElementById(pageDataElementId)).toBeNull();
    // The session's token is unmasked and sent with the app's changes.
    expect(sessionHeaders()).toEqual({ "x-csrf-token": csrfToken });
    // Later reads go out (the run's decisions, the outputs' reviews), but none of what the page carried.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(procedures()).not.toContain("auth.status");
    expect(procedures()).not.toContain("pipeline.conversation");
    expect(procedures()).not.toContain("pipeline.changes");
  });

  it("are ignored for a procedure the app does not seed, and the app asks for it", async () => {
    carry({ queries: [{ path: "auth.status", data: status }, { path: "accounts.list", data: [] }, { path: "pipeline.conversation", input: { runId: "RUN_2" }, data: shown }], csrf: null });
    renderConversation();
    // Signed in from the page, but the conversation of another run is not this one's: it is asked for.
    expect(screen.queryByRole("article", { name: "Requirements output, version 1" })).toBeNull();
    await vi.waitFor(() => expect(procedures()).toContain("pipeline.conversation"));
    expect(procedures()).not.toContain("auth.status");
    expect(sessionHeaders()).toEqual({});
  });

  it("without them, the app asks who is signed in first", async () => {
    renderConversation();
    expect(screen.getByRole("status", { name: "Loading" })).toBeTruthy();
    await vi.waitFor(() => expect(procedures()).toEqual(["auth.status"]));
  });

  it("an unreadable element is dropped, and the app asks as before", async () => {
    const element = document.createElement("script");
    element.type = "application/json";
    element.id = pageDataElementId;
    element.textContent = "{not json";
    document.body.append(element);
    renderConversation();
    expect(document.getElementById(pageDataElementId)).toBeNull();
    await vi.waitFor(() => expect(procedures()).toEqual(["auth.status"]));
  });
});
