/** The only tRPC building blocks the routers may use; every front door's refusals become typed tRPC errors here. */
import { TRPCError, initTRPC } from "@trpc/server";
import { ZodError } from "zod";
import { Refusal } from "../lib/refusal";
import type { AppContext } from "./context";

const t = initTRPC.context<AppContext>().create({
  // Errors tell clients what went wrong, never how the server is built: no stack traces, whatever NODE_ENV says.
  isDev: false,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...shape.data,
        zodError: cause instanceof ZodError ? cause.flatten() : null,
        refusalCode: cause instanceof Refusal ? (cause.answerCode ?? cause.code) : null,
        refusalDetails: cause instanceof Refusal ? (cause.details ?? null) : null,
      },
    };
  },
});

/** Refusals keep their message and take the tRPC code of their refusal code (NOT_FOUND, CONFLICT, BAD_REQUEST, ...). */
const refusals = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof Refusal) {
    const cause = result.error.cause;
    throw new TRPCError({ code: cause.trpcCode, message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(refusals);
export const createCallerFactory = t.createCallerFactory;
