import { describe, expect, it } from "vitest";
import { changeSummary, decidedLine } from "./decidedLine";

const now = Date.parse("2026-03-02T15:00:00");
const at = new Date("2026-03-02T10:32:00").toISOString();

describe("decidedLine (a decided output reads as one line: who decided, when, what changed)", () => {
  it("names the decision, who took it and when, and what the version changed", () => {
    const changes = { added: ["CAP-009"], modified: ["CAP-001", "CAP-002"], removed: [] };
    const line = decidedLine({ decided: { decision: "approve", who: "Rita Ramos", at }, superseded: false, isRevision: true }, changes, now);
    expect(line).toMatch(/^Approved by Rita Ramos · \d{1,2}:\d{2}( [AP]M)? · 1 added, 2 modified$/);
  });

  it("says a request for changes, a first version, and a superseded version no one decided", () => {
    expect(decidedLine({ decided: { decision: "request_changes", who: null, at }, superseded: true, isRevision: false }, null, now)).toMatch(/^Changes requested · \d{1,2}:\d{2}( [AP]M)? · first version$/);
    expect(decidedLine({ superseded: true, isRevision: true }, { added: [], modified: [], removed: [] }, now)).toBe("Superseded by a newer version · no changes listed");
  });

  it("counts only the kinds of change there are", () => {
    expect(changeSummary({ added: [], modified: [], removed: ["A", "B"] }, true)).toBe("2 removed");
  });
});
