/** How often runs are read again (lib/runPolling.ts): a list as its busiest run asks, and now and then once none can change. */
import { describe, expect, it } from "vitest";
import { busiest, listPollEvery, pollRunList } from "./runPolling";

describe("pollRunList", () => {
  const interval = (statuses: string[] | undefined) => pollRunList({ state: { data: statuses?.map((status) => ({ status })) } });

  it("reads a list as its busiest run asks", () => {
    expect(interval(["completed", "running", "waiting_for_user"])).toBe(listPollEvery.busy);
    expect(interval(["completed", "waiting_for_user"])).toBe(listPollEvery.waiting);
    expect(interval(["completed", "failed"])).toBe(listPollEvery.ended);
    expect(interval(undefined)).toBe(listPollEvery.ended);
  });

  it("reads a busy list more often than a waiting one, and a waiting one more often than one that has ended", () => {
    expect(listPollEvery.busy).toBeLessThan(listPollEvery.waiting);
    expect(listPollEvery.waiting).toBeLessThan(listPollEvery.ended);
    expect(busiest([])).toBe("ended");
  });
});
