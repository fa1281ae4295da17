import { flowsRouter } from "./routers/flows";
import { pipelineRouter } from "./routers/pipeline";
import { runsRouter } from "./routers/runs";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  flows: flowsRouter,
  runs: runsRouter,
  pipeline: pipelineRouter,
});

/** All the web app imports from the server: the router's type. */
export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
