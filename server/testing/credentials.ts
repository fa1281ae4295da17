/** The operator token every test server accepts (STITCH_BOOTSTRAP_TOKEN, see harness.ts): tests act as an operator unless they say otherwise. */
export const testBootstrapToken = "test-bootstrap-token-0123456789abcdef";
export const asTestOperator = { authorization: `Bearer ${testBootstrapToken}` };
