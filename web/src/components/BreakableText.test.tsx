import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { BreakableText } from "./BreakableText";

describe("BreakableText (ids and e-mail addresses wrap at their separators, never mid-word)", () => {
  it("offers a break after each separator and nowhere else, and keeps the text whole", () => {
    const { container } = render(<BreakableText text="rita.ramos@example.com" />);
    expect(container.textContent).toBe("rita.ramos@example.com");
    expect(container.innerHTML).toBe("rita.<wbr>ramos@<wbr>example.<wbr>com");
  });

  it("leaves a word without separators as one piece", () => {
    const { container } = render(<BreakableText text="RUN_01JXYZ" />);
    expect(container.innerHTML).toBe("RUN_<wbr>01JXYZ");
  });
});
