/** The only tRPC building blocks the routers may use; engine refusals become typed tRPC errors here. */
import { TRPCError, initTRPC } from "@trpc/server";
import { ZodError } from "zod";
import { EngineError } from "../engine/engine";
import type { AppContext } from "./context";

const t = initTRPC.context<AppContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...shape.data,
        zodError: cause instanceof ZodError ? cause.flatten() : null,
        engineCode: cause instanceof EngineError ? cause.code : null,
      },
    };
  },
});

const codeOf = { not_found: "NOT_FOUND", conflict: "CONFLICT", bad_request: "BAD_REQUEST", invalid_graph: "BAD_REQUEST", unauthorized: "UNAUTHORIZED" } as const;

/** Engine refusals keep their message and become NOT_FOUND, CONFLICT or BAD_REQUEST. */
const engineErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof EngineError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: codeOf[cause.code], message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(engineErrors);
export const createCallerFactory = t.createCallerFactory;
