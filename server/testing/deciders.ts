/** A reviewer deciding without an account of her own (as the bootstrap token does), so no assignment rule applies. */
export const reviewerNamed = (name: string) => ({ accountId: null, name, role: "reviewer" as const });
