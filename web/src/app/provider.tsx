/**
 * Data plumbing for the whole app: one React Query client and one tRPC client talking to /trpc.
 * Headers are read per request, so a name the reviewer just typed signs their next decision.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { httpBatchLink } from "@trpc/client";
import { type ReactNode, useState } from "react";
import { isPermanentError } from "../lib/errors";
import { actorHeaders } from "../lib/reviewerName";
import { trpc } from "../lib/trpc";

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A missing run or a refused input will not change by asking again; a dropped connection may.
        retry: (failures, error) => !isPermanentError(error) && failures < 2,
        refetchOnWindowFocus: true,
        staleTime: 1000,
      },
    },
  });
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(() => trpc.createClient({ links: [httpBatchLink({ url: "/trpc", headers: actorHeaders })] }));
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}
