/**
 * The app's only way to application data: tRPC hooks typed by the server's router.
 * Nothing here is hand-written fetch; the router's type is all the app imports from the server.
 */
import { createTRPCReact } from "@trpc/react-query";
import type { AppRouter } from "../../../server/trpc/router";

export const trpc = createTRPCReact<AppRouter>();
