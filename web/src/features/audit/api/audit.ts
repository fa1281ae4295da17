/**
 * The audit trail, newest first, a page at a time: each page is asked for with the filter and the `next_before` of
 * the page before it (the trail's own cursor), so an entry recorded meanwhile neither shifts nor repeats a page.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { type AuditFilter, trpc } from "../../../lib/trpc";

export const auditPageSize = 50;

export function useAuditTrail(filter: AuditFilter) {
  const utils = trpc.useUtils();
  return useInfiniteQuery({
    queryKey: ["audit.list", filter],
    queryFn: ({ pageParam }) => utils.client.audit.list.query({ ...filter, limit: auditPageSize, ...(pageParam === null ? {} : { before: pageParam }) }),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next_before,
  });
}
