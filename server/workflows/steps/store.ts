/**
 * The step workflows' own reads: the `run_steps` view, each step of a run as the seed's table had it. The workflow
 * tables the step workflows share with the YAML workflows are read and written by server/workflows/store.ts alone.
 */
import { eq } from "drizzle-orm";
import type { Executor } from "../../../db/client";
import { type RunStepRow, runSteps } from "../../../db/schema";
import { isUuid } from "../../lib/uuid";

export type { RunStepRow };

/** The run's `run_steps` rows (any order). */
export function stepsOf(db: Executor, runId: string): Promise<RunStepRow[]> {
  if (!isUuid(runId)) return Promise.resolve([]);
  return db.select().from(runSteps).where(eq(runSteps.runId, runId));
}
