/**
 * The end-to-end server's STITCH_BOOTSTRAP_TOKEN: an operator token that belongs to no account. playwright.config.ts
 * sends it with every request of every spec (browser and API), so the specs act as automation does, and the server
 * still has no account: people.spec.ts, which sends nothing, meets the "Create the first account" page.
 */
export const bootstrapToken = "e2e-bootstrap-token-0123456789abcdef-not-a-secret";

export const bootstrapHeaders = { authorization: `Bearer ${bootstrapToken}` };

/** What the server records decisions made with the bootstrap token under. */
export const bootstrapName = "bootstrap token";
