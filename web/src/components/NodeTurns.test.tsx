/** A node's turns as every door draws them: started (live or past), skipped, failed, and its bubble. */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { NodeFailed, NodeMessage, NodeSkipped, NodeStarted } from "./NodeTurns";

afterEach(cleanup);

const at = "2026-01-01T10:00:00Z";

describe("NodeTurns", () => {
  it("shows a working node live, and a line once it answered", () => {
    const props = { name: "draft", detail: "(prompt) ", line: "draft (prompt)", avatar: null, verb: "running", revising: false, attempt: 2, at };
    const { rerender } = render(<NodeStarted {...props} live />);
    expect(screen.getByRole("status").textContent).toContain("draft (prompt) is running, attempt 2…");
    rerender(<NodeStarted {...props} revising live={false} />);
    expect(screen.queryByRole("status")).toBeNull();
    expect(document.body.textContent).toContain("draft (prompt) started a revision · attempt 2");
  });

  it("folds a skipped node with its reason", () => {
    render(<NodeSkipped name="legal" at={at} reason="Its condition was false." />);
    expect(document.querySelector("summary")?.textContent).toContain("legal skipped");
    expect(document.body.textContent).toContain("Reason Its condition was false.");
  });

  it("says a failure is tried again by itself, with no Retry", () => {
    render(<NodeFailed label="fetch failed" author="fetch failed" avatar={null} retrying attempt={3} at={at} error="timeout" retry={null} />);
    const bubble = screen.getByRole("article", { name: "fetch failed" });
    expect(bubble.textContent).toContain("fetch failed; it is tried again automatically");
    expect(bubble.textContent).toContain("attempt 3");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("marks a bubble that waits for a person", () => {
    render(
      <NodeMessage label="legal asks for approval" avatar={null} name="legal" tags={<span>approval</span>} at={at} awaiting card="turn-card" body="turn-body">
        <p>Approve?</p>
      </NodeMessage>,
    );
    const bubble = screen.getByRole("article", { name: "legal asks for approval" });
    expect(bubble.className).toBe("message message-agent is-awaiting");
    expect(screen.getByRole("heading", { name: "legal" })).toBeTruthy();
    expect(bubble.querySelector(".turn-body")?.textContent).toBe("Approve?");
  });
});
