/** "Your name": saved in this browser, sent percent-encoded as `x-actor` with every call, refused when too long. */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { actorHeaders } from "../../../lib/reviewerName";
import { ReviewerNameField } from "./ReviewerNameField";

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const nameBox = () => screen.getByRole("textbox", { name: "Your name" }) as HTMLInputElement;

describe("ReviewerNameField", () => {
  it("sends no actor until the reviewer names themselves, then sends the trimmed name with every call", () => {
    render(<ReviewerNameField />);
    expect(nameBox().value).toBe("");
    expect(actorHeaders()).toEqual({});
    fireEvent.change(nameBox(), { target: { value: "  Dana Scully " } });
    expect(actorHeaders()).toEqual({ "x-actor": "Dana%20Scully" });
    // What was typed stays while typing, so a space before the next word is not eaten.
    expect(nameBox().value).toBe("  Dana Scully ");
    fireEvent.blur(nameBox());
    expect(nameBox().value).toBe("Dana Scully");
  });

  it("shows the name saved earlier in this browser", () => {
    fireEvent.change(render(<ReviewerNameField />).getByRole("textbox", { name: "Your name" }), { target: { value: "José Núñez" } });
    cleanup();
    render(<ReviewerNameField />);
    expect(nameBox().value).toBe("José Núñez");
    expect(actorHeaders()).toEqual({ "x-actor": encodeURIComponent("José Núñez") });
  });

  it("sends a name in any script, percent-encoded; refuses one too long, says why, and keeps sending the last good one", () => {
    render(<ReviewerNameField />);
    fireEvent.change(nameBox(), { target: { value: "Dana 李" } });
    expect(actorHeaders()).toEqual({ "x-actor": "Dana%20%E6%9D%8E" });
    fireEvent.change(nameBox(), { target: { value: "x".repeat(81) } });
    expect(nameBox().getAttribute("aria-invalid")).toBe("true");
    const hint = document.getElementById(nameBox().getAttribute("aria-describedby")!)!;
    expect(hint.textContent).toContain("within 80 characters");
    expect(actorHeaders()).toEqual({ "x-actor": "Dana%20%E6%9D%8E" });
    fireEvent.change(nameBox(), { target: { value: "Dana Li" } });
    expect(nameBox().getAttribute("aria-invalid")).toBeNull();
    expect(actorHeaders()).toEqual({ "x-actor": "Dana%20Li" });
  });

  it("stops signing decisions once the name is cleared", () => {
    render(<ReviewerNameField />);
    fireEvent.change(nameBox(), { target: { value: "Dana" } });
    fireEvent.change(nameBox(), { target: { value: "   " } });
    expect(actorHeaders()).toEqual({});
    expect(localStorage.length).toBe(0);
  });

  it("follows a name saved in another tab", () => {
    render(<ReviewerNameField />);
    act(() => {
      localStorage.setItem("stitch.reviewerName", "Grace");
      window.dispatchEvent(new StorageEvent("storage", { key: "stitch.reviewerName", newValue: "Grace" }));
    });
    expect(nameBox().value).toBe("Grace");
  });
});
