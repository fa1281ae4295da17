/** The palette: the node kinds, found by what they do, each added by its button after the selected node. */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Palette } from "./Palette";

afterEach(cleanup);

describe("the palette", () => {
  it("finds a kind by what it does and adds it by its button, saying where it goes", () => {
    const onAdd = vi.fn();
    render(<Palette afterLabel="Ship" onAdd={onAdd} />);
    expect(screen.getAllByText('Adds after "Ship" and connects it.').length).toBeGreaterThan(0);
    fireEvent.change(screen.getByRole("searchbox", { name: "Add a node" }), { target: { value: "split" } });
    const names = screen.getAllByRole("button").map((b) => b.textContent ?? "");
    expect(names.some((name) => name.startsWith("Add Splitter"))).toBe(true);
    expect(names.some((name) => name.startsWith("Add Worker"))).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: /^Add Splitter/ }));
    expect(onAdd).toHaveBeenCalledWith("splitter");
  });
});
