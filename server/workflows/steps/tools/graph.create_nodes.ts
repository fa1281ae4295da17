/**
 * `graph.create_nodes`: writes nodes to the graph (graph/store.ts: `(:Entity {id, name, type, properties})`), and
 * with `to` an `edge_type` edge from each to the node of that name (made when there is none). Creating the same name
 * and type again updates that node, so a retried step writes the same graph. `nodes` is a list, or an object with
 * `entities` as llm.extract_entities answers.
 */
import { z } from "zod";
import { EDGE_TYPE_PATTERN, ENTITY_LABEL } from "./graph/store";
import { graphFailure } from "./graph.cypher";
import { defineTool } from "./tool";

const NodeInput = z.object({
  name: z.string().trim().min(1, "a node's name must not be empty"),
  type: z.string().trim().min(1).optional(),
  properties: z.record(z.string(), z.json()).optional(),
});

export default defineTool({
  name: "graph.create_nodes",
  description:
    "Creates or updates graph nodes (:Entity {id, name, type, properties}) from `nodes` (a list of { name, type?, properties? }, or llm.extract_entities' answer), " +
    "linking each to the node named `to` with an `edge_type` edge when `to` is given. Answers { count, ids }.",
  params: z.object({
    nodes: z.union([z.array(NodeInput), z.object({ entities: z.array(NodeInput) })], { error: "nodes must be a list of { name, type?, properties? } or an object with such a list in `entities`" }),
    edge_type: z
      .string()
      .regex(EDGE_TYPE_PATTERN, "edge_type must be a letter or _ followed by letters, digits or _ (WORKS_FOR)")
      .refine((type) => type.toLowerCase() !== ENTITY_LABEL.toLowerCase(), `edge_type must not be ${ENTITY_LABEL}, the nodes' label`),
    /** The name of the node the new ones link to. */
    to: z.string().trim().min(1, "to must name a node").optional(),
  }),
  result: z.object({ count: z.number().int(), ids: z.array(z.string()) }),
  defaultTimeoutMs: 60_000,
  async run({ nodes, edge_type: edgeType, to }, context) {
    const list = Array.isArray(nodes) ? nodes : nodes.entities;
    try {
      const { ids } = await context.graph.createNodes(list, to ? { edgeType, to } : undefined);
      return { count: ids.length, ids };
    } catch (error) {
      throw graphFailure(context, "graph.create_nodes", error);
    }
  },
});
