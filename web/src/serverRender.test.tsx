// @vitest-environment node
/**
 * The app drawn on the server (serverRender.tsx), where there is no `window`, `document` or storage: every page of the
 * app draws for every role without reaching for them (a page that did would be served undrawn, and the server logs it),
 * the conversation from the answers the page carries, and what the page does not carry as loading, as the app's first
 * render in the browser shows it.
 */
import { describe, expect, it } from "vitest";
import { renderApp } from "./serverRender";
import { agents, conversation, envelope, requirementsArtifact, runView, turns } from "./testing/fixtures";
import { signedIn } from "./testing/people";
import type { AuthStatus } from "./lib/trpc";

const pages = [
  "/app",
  "/app/runs/RUN_1",
  "/app/runs/RUN_1/graph",
  "/app/reviews",
  "/app/engine",
  "/app/engine/runs/R1",
  "/app/flows/runs/R1",
  "/app/flows/runs/R1/graph",
  "/app/workflows",
  "/app/workflows/new",
  "/app/workflows/runs/R1",
  "/app/workflows/runs/R1/graph",
  "/app/workflows/nightly",
  "/app/steps",
  "/app/steps/new",
  "/app/steps/runs/R1",
  "/app/steps/runs/R1/graph",
  "/app/steps/nightly",
  "/app/people",
  "/app/tokens",
  "/app/audit",
  "/app/subscriptions",
  "/app/settings",
  "/app/invitations/some-token",
  "/app/nothing-here",
];

const status = (role: "analyst" | "reviewer" | "operator"): AuthStatus => ({ needsSetup: false, me: signedIn(role), csrfToken: null });

describe("the app drawn on the server", () => {
  it("is not in a browser here", () => {
    expect(typeof window).toBe("undefined");
    expect(typeof document).toBe("undefined");
  });

  for (const role of ["analyst", "reviewer", "operator"] as const) {
    it(`draws every page for ${role === "reviewer" ? "a" : "an"} ${role}`, () => {
      for (const page of pages) {
        const html = renderApp(page, [{ path: "auth.status", data: status(role) }]);
        expect(html, page).toMatch(/^<div class="shell/);
        expect(html, page).toContain(signedIn(role).name);
      }
    });
  }

  it("draws a run's conversation from the answers carried, and the sidebar it does not carry as loading", () => {
    const run = runView({ state: { phase: "waiting_approval", agent: "requirements" }, is_waiting_for_user: true });
    const shown = conversation(run, [turns.brief(), turns.artifact("a1", agents[0]!, 1, envelope(requirementsArtifact))]);
    const html = renderApp(`/app/runs/${run.run_id}`, [
      { path: "auth.status", data: status("reviewer") },
      { path: "pipeline.agents", data: agents },
      { path: "pipeline.conversation", input: { runId: run.run_id }, data: shown },
      { path: "not.a.procedure", data: { anything: true } },
      "not a query",
    ]);
    expect(html).toContain(`aria-label="${agents[0]!.name} output, version 1"`);
    expect(html).toContain('aria-busy="true"');
  });

  it("draws the sign-in page for no one signed in, and the loading page without an answer", () => {
    expect(renderApp("/app", [{ path: "auth.status", data: { needsSetup: false, me: null, csrfToken: null } }])).toContain("Sign in");
    expect(renderApp("/app", [])).toContain("Loading");
  });
});
