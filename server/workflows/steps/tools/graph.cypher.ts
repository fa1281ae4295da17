/**
 * `graph.cypher`: one Cypher query on the graph (graph/store.ts), with `$name` parameters, answering its rows as
 * JSON. On the embedded graph a label needs its table first (`CREATE NODE TABLE`): the graph tools' nodes are :Entity.
 */
import { z } from "zod";
import { ENTITY_LABEL } from "./graph/store";
import { ToolError, type ToolContext, defineTool } from "./tool";

/** A graph database's failure as the step's: transient when the driver says a retry may succeed (Neo4j's `retriable`). */
export function graphFailure(context: ToolContext, tool: string, error: unknown, hint = ""): ToolError {
  const message = error instanceof Error ? error.message : String(error);
  const transient = typeof error === "object" && error !== null && (error as { retriable?: unknown }).retriable === true;
  return new ToolError(`${context.label} (${tool}): ${context.graph.description} failed: ${message}${hint}`, { transient, cause: error });
}

export default defineTool({
  name: "graph.cypher",
  description: `Runs one Cypher query on the graph with optional $parameters and answers { rows }. Nodes made by graph.create_nodes are :${ENTITY_LABEL} {id, name, type, properties}.`,
  params: z.object({
    query: z.string().trim().min(1, "query must not be empty"),
    params: z.record(z.string(), z.json()).optional(),
  }),
  result: z.object({ rows: z.array(z.record(z.string(), z.json())) }),
  defaultTimeoutMs: 65_000,
  async run({ query, params }, context) {
    try {
      return { rows: (await context.graph.query(query, params)) as Record<string, z.infer<ReturnType<typeof z.json>>>[] };
    } catch (error) {
      const missingTable = error instanceof Error && /Table \S+ does not exist/i.test(error.message);
      throw graphFailure(context, "graph.cypher", error, missingTable ? ` (the embedded graph needs a table per label, CREATE NODE TABLE ...; the graph tools' nodes are :${ENTITY_LABEL})` : "");
    }
  },
});
