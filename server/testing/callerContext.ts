/** A tRPC context for `createCaller` in tests: the services, and a caller with a role (an operator unless said). */
import { type Services, trpcContext } from "../app";
import type { Identity, Role } from "../people/schemas";
import type { AppContext } from "../trpc/context";

/** Someone signed in with `role`, named `name` (what decisions are recorded under). */
export function personAs(name: string, role: Role = "operator"): Identity {
  return { kind: "token", accountId: "00000000-0000-4000-8000-000000000000", name, role, tokenId: "00000000-0000-4000-8000-000000000001" };
}

export function callerContext(services: Services, identity: Identity): AppContext {
  return trpcContext(services, { identity, origin: { address: "127.0.0.1", userAgent: "test" }, crossSite: null, resHeaders: new Headers(), https: false });
}
