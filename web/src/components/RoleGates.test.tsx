/**
 * What each role is offered where a run waits on a person: an analyst reads "Waiting for a reviewer" and finds no
 * Approve, Cancel run or Retry; a reviewer decides but neither cancels nor retries; an operator does all three.
 */
import { cleanup, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../lib/session";
import type { Role } from "../lib/trpc";
import { signedIn } from "../testing/people";
import { CancelRun } from "./CancelRun";
import { RetryAction } from "./Chat";
import { ReviewForm } from "./ReviewForm";

afterEach(cleanup);

function renderAs(role: Role, children: ReactNode) {
  return render(<SessionProvider value={signedIn(role)}>{children}</SessionProvider>);
}

const controls = (
  <>
    <ReviewForm subject="Requirements" title="Your review" consequence="Approving goes on." placeholder="" hint="" pending={null} error={null} draftKey={null} onApprove={vi.fn()} onReject={vi.fn(async () => true)} />
    <CancelRun consequence="It stops." pending={false} error={null} onConfirm={vi.fn(async () => undefined)} />
    <RetryAction retry={{ pending: false, error: null, onRetry: vi.fn() }} />
  </>
);

describe("what each role is offered", () => {
  it("an analyst waits for a reviewer, and may neither decide, cancel nor retry", () => {
    renderAs("analyst", controls);
    expect(screen.getByRole("status", { name: "Waiting for a reviewer on Requirements" }).textContent).toContain("Waiting for a reviewer.");
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Request changes" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Cancel run" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
    expect(screen.getByText("An operator can retry it.")).toBeTruthy();
  });

  it("a reviewer decides, but neither cancels nor retries", () => {
    renderAs("reviewer", controls);
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Request changes" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Cancel run" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("an operator decides, cancels and retries", () => {
    renderAs("operator", controls);
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancel run" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
    expect(screen.queryByText(/Waiting for a reviewer/)).toBeNull();
  });
});
