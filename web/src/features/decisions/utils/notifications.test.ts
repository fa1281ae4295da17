/**
 * Which decisions are new since the last poll (nothing on the first, which only learns what is there), what their
 * notification says, and the person's setting: the browser's permission is asked only by turning notifications on,
 * and a browser without notifications is told apart.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decision } from "../../../testing/decisions";
import { freshDecisions, notificationOf, notificationSetting, turnNotificationsOff, turnNotificationsOn } from "./notifications";

describe("freshDecisions", () => {
  const a = decision({ id: "a" });
  const b = decision({ id: "b" });
  const c = decision({ id: "c" });

  it("finds nothing new on the first poll, which learns what is there already", () => {
    const first = freshDecisions(null, [a, b]);
    expect(first.fresh).toEqual([]);
    expect([...first.seen]).toEqual(["a", "b"]);
  });

  it("finds the decisions that were not in the previous answer, in the answer's order", () => {
    const { seen } = freshDecisions(null, [a]);
    const second = freshDecisions(seen, [c, b, a]);
    expect(second.fresh.map((d) => d.id)).toEqual(["c", "b"]);
    expect(freshDecisions(second.seen, [c, b, a]).fresh).toEqual([]);
  });

  it("forgets what left the list, so a decision that comes back (assigned to me again) is new again", () => {
    const { seen } = freshDecisions(new Set(["a"]), [b]);
    expect(freshDecisions(seen, [a, b]).fresh.map((d) => d.id)).toEqual(["a"]);
  });

  it("ignores decisions that are no longer open", () => {
    expect(freshDecisions(new Set(), [decision({ id: "d", state: "decided" })]).fresh).toEqual([]);
  });
});

describe("notificationOf", () => {
  it("names the decision, its context and whose run it is", () => {
    expect(notificationOf(decision({ title: "Review Requirements v2 of tool-library", context: "tool-library", started_by: { id: null, name: "Ana Analyst" } }))).toEqual({
      title: "New decision waiting: Review Requirements v2 of tool-library",
      body: "tool-library · Started by Ana Analyst",
    });
    expect(notificationOf(decision({ context: "", started_by: null })).body).toBe("");
  });
});

describe("the notification setting", () => {
  let permission: NotificationPermission;
  const requestPermission = vi.fn(async () => permission);
  beforeEach(() => {
    permission = "default";
    requestPermission.mockClear();
    const FakeNotification = Object.defineProperty(Object.assign(vi.fn(), { requestPermission }), "permission", { get: () => permission });
    vi.stubGlobal("Notification", FakeNotification);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it("is off until the person turns it on, and asks the browser only then", async () => {
    expect(notificationSetting()).toBe("off");
    expect(requestPermission).not.toHaveBeenCalled();
    requestPermission.mockImplementationOnce(async () => (permission = "granted"));
    expect(await turnNotificationsOn()).toBe("on");
    expect(requestPermission).toHaveBeenCalledTimes(1);
    turnNotificationsOff();
    expect(notificationSetting()).toBe("off");
    // Permission granted already: turning on again asks nothing more.
    expect(await turnNotificationsOn()).toBe("on");
    expect(requestPermission).toHaveBeenCalledTimes(1);
  });

  it("stays off when the person dismisses the browser's question, and says when the site is blocked", async () => {
    expect(await turnNotificationsOn()).toBe("off");
    permission = "denied";
    expect(notificationSetting()).toBe("denied");
  });

  it("is unsupported in a browser without notifications", async () => {
    vi.unstubAllGlobals();
    expect("Notification" in window).toBe(false);
    expect(notificationSetting()).toBe("unsupported");
    expect(await turnNotificationsOn()).toBe("unsupported");
  });
});
