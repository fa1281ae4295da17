import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DiagramViewer, zoomed } from "./DiagramViewer";

afterEach(cleanup);

describe("DiagramViewer", () => {
  it("zooms within its bounds around the centre", () => {
    expect(zoomed({ scale: 1, x: 10, y: -20 }, 2)).toEqual({ scale: 2, x: 20, y: -40 });
    expect(zoomed({ scale: 5, x: 0, y: 0 }, 4).scale).toBe(6);
    expect(zoomed({ scale: 0.6, x: 0, y: 0 }, 0.5).scale).toBe(0.5);
  });

  it("opens as a dialog with its focus on Close, zooms by button and key, pans by arrow keys, and Escape closes", () => {
    const onClose = vi.fn();
    render(<DiagramViewer svg="<svg></svg>" title="Sequence diagram" onClose={onClose} />);
    const dialog = screen.getByRole("dialog", { name: "Sequence diagram" });
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Close" }));
    fireEvent.click(screen.getByRole("button", { name: "Zoom in" }));
    expect(screen.getByText("125%")).toBeTruthy();
    fireEvent.keyDown(dialog, { key: "-" });
    expect(screen.getByText("100%")).toBeTruthy();
    fireEvent.keyDown(dialog, { key: "ArrowLeft" });
    const content = dialog.querySelector(".diagram-viewer-content") as HTMLElement;
    expect(content.style.transform).toBe("translate(40px, 0px) scale(1)");
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(onClose).toHaveBeenCalled();
  });
});
