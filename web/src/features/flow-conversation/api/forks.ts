/** The comparison of two runs of one flow, read once (a page the person opened to read, not a live view). */
import { trpc } from "../../../lib/trpc";

export function useRunComparison(a: string, b: string) {
  return trpc.engine.runs.compare.useQuery({ a, b });
}
