/** The operator token every test server accepts (STITCH_BOOTSTRAP_TOKEN, see harness.ts): tests act as an operator unless they say otherwise. */
export const testBootstrapToken = "test-bootstrap-token-0123456789abcdef";
export const asTestOperator = { authorization: `Bearer ${testBootstrapToken}` };
/** Who the bootstrap token is, for commands a test calls directly as the operator. */
export const bootstrapOperator = { kind: "bootstrap", accountId: null, name: "bootstrap token", role: "operator" } as const;
