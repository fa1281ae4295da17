/** A tRPC client for component tests whose components hold tRPC hooks they do not call while the test runs (a form's mutation). */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { httpBatchLink } from "@trpc/client";
import type { ReactNode } from "react";
import { trpc } from "../lib/trpc";

export function WithTrpc({ children }: { children: ReactNode }) {
  const queryClient = new QueryClient();
  return (
    <trpc.Provider client={trpc.createClient({ links: [httpBatchLink({ url: "/trpc" })] })} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}
