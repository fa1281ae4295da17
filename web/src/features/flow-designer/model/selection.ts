/** What is selected on the canvas: nodes and edges by id. Not part of the graph, so never saved or undone. */
export interface Selection {
  nodes: ReadonlySet<string>;
  edges: ReadonlySet<string>;
}

export const emptySelection: Selection = { nodes: new Set(), edges: new Set() };
