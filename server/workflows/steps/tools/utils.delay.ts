/** `utils.delay`: waits `ms` milliseconds (at most MAX_DELAY_MS), and stops waiting when the step is cancelled. */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { defineTool } from "./tool";

export const MAX_DELAY_MS = 5 * 60_000;

export default defineTool({
  name: "utils.delay",
  description: `Waits \`ms\` milliseconds (0 to ${MAX_DELAY_MS}) and answers { ms }.`,
  params: z.object({ ms: z.number().int().min(0).max(MAX_DELAY_MS, `ms must be at most ${MAX_DELAY_MS} (5 minutes)`) }),
  result: z.object({ ms: z.number() }),
  defaultTimeoutMs: MAX_DELAY_MS + 5_000,
  async run({ ms }, { signal }) {
    await sleep(ms, undefined, { signal });
    return { ms };
  },
});
