/** `utils.echo`: answers its params as they are; for trying a workflow's templates and wiring. */
import { z } from "zod";
import { defineTool } from "./tool";

const Params = z.record(z.string(), z.json());

export default defineTool({
  name: "utils.echo",
  description: "Answers its params unchanged: for trying out a workflow's templates and wiring.",
  params: Params,
  result: Params,
  defaultTimeoutMs: 1_000,
  async run(params) {
    return params;
  },
});
