/** Threads: replies under their first comment, placed where their part is now; what is open, and what the next request for changes sends. */
import { describe, expect, it } from "vitest";
import type { ReviewComment } from "../../../lib/trpc";
import { threadsOf } from "./threads";

function comment(fields: Partial<ReviewComment>): ReviewComment {
  return {
    id: "c-1", decision_id: "d-1", version: 1, anchor: "core_capabilities[CAP-001]", label: "Core capabilities › CAP-001", quote: "CAP-001: Book a trip", text: "Limit it.",
    reply_to: null, author: { id: "a-rita", name: "Rita Ramos" }, created_at: "2026-01-01T10:01:00Z", resolved: false, resolved_by: null, outdated: false, changed: false,
    current_anchor: "core_capabilities[CAP-001]", sent_with_version: null, ...fields,
  };
}

describe("threadsOf", () => {
  it("counts open threads, and sends only those not sent already", () => {
    const threads = threadsOf([
      comment({ id: "sent", sent_with_version: 1 }),
      comment({ id: "reply", reply_to: "sent", text: "Agreed." }),
      comment({ id: "new", anchor: "assumptions[#1]", current_anchor: "assumptions[#1]" }),
      comment({ id: "done", resolved: true }),
      comment({ id: "gone", current_anchor: null, outdated: true }),
    ]);
    expect([threads.open, threads.toSend]).toEqual([3, 2]);
    expect(threads.byAnchor.get("core_capabilities[CAP-001]")!.map((t) => [t.root.id, t.replies.map((r) => r.id)])).toEqual([["sent", ["reply"]], ["done", []]]);
    expect(threads.outdated.map((t) => t.root.id)).toEqual(["gone"]);
  });
});
