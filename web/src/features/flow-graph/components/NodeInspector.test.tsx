/** A node's error reads as what it is: a fault, a cancellation's reason, or an attempt that will be retried. */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { NodeErrorNotice } from "./NodeInspector";

afterEach(cleanup);

describe("NodeErrorNotice", () => {
  it.each([
    ["failed", "Error", "notice-error", "HTTP 500 from the worker"],
    ["cancelled", "Stopped", "notice-neutral", "cancelled: brief withdrawn"],
    ["running", "Retrying", "notice-warning", "attempt 1 failed: busy; attempt 2 of 3 in 500 ms"],
  ])("a %s node's error is titled %s", (status, title, className, error) => {
    const { container } = render(<NodeErrorNotice status={status} error={error} />);
    expect(screen.getByText(title)).toBeTruthy();
    expect(screen.getByText(error)).toBeTruthy();
    expect(container.querySelector(".notice")!.classList.contains(className)).toBe(true);
  });
});
