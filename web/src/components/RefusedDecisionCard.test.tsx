/** The card a refused decision leaves where its composer was: the text kept, the server's word, Copy, send again. */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RefusedDecisionCard } from "./RefusedDecisionCard";

afterEach(cleanup);

const refused = { action: "reject" as const, text: "Add the payment rules.", message: "you reviewed requirements v1, but the output waiting now is Requirements v2", target: "requirements:1", draftKey: null };

describe("RefusedDecisionCard", () => {
  it("keeps the text, says what changed and what the server answered, takes focus, and sends the same text again", () => {
    const onSend = vi.fn();
    const onDiscard = vi.fn();
    render(
      <RefusedDecisionCard
        refused={refused}
        subject="Requirements v1"
        change="Rita Ramos requested changes to Requirements v1; Requirements v2 waits for review now."
        resend={{ label: "Send against v2", consequence: "Sends this request for changes on Requirements v2.", pending: false, error: null, onSend }}
        onDiscard={onDiscard}
      />,
    );
    const card = screen.getByRole("region", { name: "Your request for changes on Requirements v1 was not sent" });
    expect(document.activeElement).toBe(card);
    expect((screen.getByRole("textbox", { name: "Your text, kept" }) as HTMLTextAreaElement).value).toBe("Add the payment rules.");
    expect(card.textContent).toContain("Rita Ramos requested changes to Requirements v1");
    expect(card.textContent).toContain("but the output waiting now is Requirements v2");
    fireEvent.click(screen.getByRole("button", { name: "Send against v2" }));
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onDiscard).not.toHaveBeenCalled();
  });

  it("copies the text, and offers no resend when nothing waits in a new version", async () => {
    const writeText = vi.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    render(<RefusedDecisionCard refused={refused} subject="Requirements v1" change={null} resend={null} onDiscard={vi.fn()} />);
    expect(screen.queryByRole("button", { name: /Send against/ })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith("Add the payment rules.");
    expect(await screen.findByRole("button", { name: "Copied" })).toBeTruthy();
  });
});
