/** Where a pipeline run was forked, as its turns and header say it: an agent ("Inception"), or its review ("the review of Inception"). */
export function forkPoint(nodeId: string, agentName: string | null): string {
  if (agentName === null) return nodeId;
  return nodeId.startsWith("review_") ? `the review of ${agentName}` : agentName;
}
