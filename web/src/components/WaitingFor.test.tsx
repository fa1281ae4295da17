/**
 * Who a run waits for, as every page says it: the person or the role, since when, until when or since when overdue,
 * and a quorum's approvals; in place of the decision controls for anyone who may not take the decision (never "your
 * review"), and above them for whoever may.
 */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../lib/session";
import { formatDateTime, formatTime } from "../lib/time";
import type { Role } from "../lib/trpc";
import { decision } from "../testing/decisions";
import { signedIn } from "../testing/people";
import { ReviewForm } from "./ReviewForm";
import { WaitingFor, waitingForText } from "./WaitingFor";

afterEach(cleanup);

const at = (day: number, hours: number, minutes: number) => new Date(2026, 0, day, hours, minutes).toISOString();
const now = new Date(2026, 0, 15, 12, 0).getTime();
const days = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const rita = { kind: "account", id: "id-rita", name: "Rita Ramos", role: "reviewer" } as const;

describe("waitingForText", () => {
  it("names the person, since when and until when: \"Waiting for Rita Ramos since 10:02, due tomorrow 10:00\"", () => {
    const waiting = decision({ assignee: rita, waiting_since: at(15, 10, 2), due_at: at(16, 10, 0) });
    expect(waitingForText(waiting, "id-analyst", now)).toBe(`Waiting for Rita Ramos since ${formatTime(at(15, 10, 2))}, due ${days.format(1, "day")} ${formatTime(at(16, 10, 0))}`);
  });

  it("names the role when it is assigned to no one, and says so when it is overdue", () => {
    const overdue = decision({ waiting_since: at(14, 16, 30), due_at: at(15, 9, 0) });
    expect(waitingForText(overdue, "id-analyst", now)).toBe(`Waiting for a reviewer since ${days.format(-1, "day")} ${formatTime(at(14, 16, 30))}, overdue since ${formatTime(at(15, 9, 0))}`);
    expect(waitingForText(decision({ waiting_since: at(2, 9, 0), assignee: { kind: "role", id: null, name: null, role: "operator" } }), null, now)).toBe(
      `Waiting for an operator since ${formatDateTime(at(2, 9, 0))}`,
    );
  });

  it("counts a quorum's approvals and who gave them, and says \"you\" to the person it is assigned to", () => {
    const quorum = decision({ waiting_since: at(15, 10, 2), approvals_needed: 2, approvals: [{ by: "Sam Stone", at: at(15, 11, 0) }] });
    expect(waitingForText(quorum, null, now)).toBe(`Waiting for a reviewer since ${formatTime(at(15, 10, 2))} · 1 of 2 approvals: approved by Sam Stone`);
    expect(waitingForText(decision({ ...quorum, approvals: [] }), null, now)).toMatch(/ · 0 of 2 approvals$/);
    expect(waitingForText(decision({ assignee: rita, waiting_since: at(15, 10, 2) }), "id-rita", now)).toBe(`Waiting for you since ${formatTime(at(15, 10, 2))}`);
  });

  it("renders the same words, its times as <time> elements", () => {
    const waiting = decision({ assignee: rita, waiting_since: at(15, 10, 2), due_at: at(16, 10, 0) });
    const { container } = render(<WaitingFor decision={waiting} now={now} />);
    expect(container.textContent).toBe(waitingForText(waiting, null, now));
    expect([...container.querySelectorAll("time")].map((time) => time.getAttribute("datetime"))).toEqual([waiting.waiting_since, waiting.due_at]);
  });
});

describe("the review form, by who may take the decision", () => {
  const form = (role: Role, given = decision({ assignee: rita }), me = signedIn(role)) =>
    render(
      <SessionProvider value={me}>
        <ReviewForm subject="Requirements" title="Your review" consequence="Approving goes on." placeholder="" hint="" pending={null} error={null} decision={given} draftKey={null} onApprove={vi.fn()} onReject={vi.fn(async () => true)} />
      </SessionProvider>,
    );

  it("an analyst reads who it waits for in place of the controls, never \"your review\"", () => {
    form("analyst");
    const status = screen.getByRole("status", { name: "Waiting for Rita Ramos on Requirements" });
    expect(status.textContent).toMatch(/^Waiting for Rita Ramos since /);
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(document.body.textContent).not.toMatch(/your review/i);
  });

  it("a reviewer it is not assigned to reads the same; the one it is assigned to decides, under the same line", () => {
    form("reviewer");
    expect(screen.getByRole("status", { name: "Waiting for Rita Ramos on Requirements" })).toBeTruthy();
    cleanup();
    form("reviewer", decision({ assignee: rita }), signedIn("reviewer", { id: "id-rita", name: "Rita Ramos" }));
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
    expect(screen.getByRole("region", { name: "Review Requirements" }).querySelector(".waiting-for")!.textContent).toMatch(/^Waiting for you since /);
  });

  it("the brief's submitter may not review a pipeline output (separation of duties), even as a reviewer", () => {
    form("reviewer", decision({ started_by: { id: "id-reviewer", name: "Ada reviewer" } }));
    expect(screen.getByRole("status", { name: "Waiting for a reviewer on Requirements" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
  });
});
