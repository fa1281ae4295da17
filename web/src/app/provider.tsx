/**
 * Data plumbing for the whole app: one React Query client and one tRPC client talking to /trpc.
 * Every call carries the session's CSRF token (web/src/lib/session.ts), read per request: it is remembered each time
 * `auth.status` answers, so the token of the session just begun signs the next change. A call refused to the caller
 * (401: the session expired or was ended elsewhere; 403: the role was changed meanwhile) asks `auth.status` again, and
 * the sign-in gate and every role check follow its answer.
 */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { httpBatchLink } from "@trpc/client";
import { type ReactNode, useState } from "react";
import { isPermanentError } from "../lib/errors";
import { seedFromPage } from "../lib/pageData";
import { authStatusQuery, isAccessRefused, isAuthStatusQuery, rememberCsrfToken, sessionHeaders } from "../lib/session";
import { type AuthStatus, trpc } from "../lib/trpc";

function createQueryClient(): QueryClient {
  const askWhoIsSignedIn = (error: unknown) => {
    if (isAccessRefused(error)) void queryClient.invalidateQueries(authStatusQuery);
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onSuccess: (data, query) => {
        if (isAuthStatusQuery(query)) rememberCsrfToken((data as AuthStatus).csrfToken);
      },
      onError: askWhoIsSignedIn,
    }),
    mutationCache: new MutationCache({ onError: askWhoIsSignedIn }),
    defaultOptions: {
      queries: {
        // A missing run or a refused input will not change by asking again; a dropped connection may.
        retry: (failures, error) => !isPermanentError(error) && failures < 2,
        refetchOnWindowFocus: true,
        staleTime: 1000,
      },
    },
  });
  // What the page came with (who is signed in, the conversation on screen): drawn at once, not asked for first.
  seedFromPage(queryClient);
  return queryClient;
}

/** The app's data plumbing; `client` is the query client to use (the server's first render brings its own, seeded). */
export function AppProvider({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  const [trpcClient] = useState(() => trpc.createClient({ links: [httpBatchLink({ url: "/trpc", headers: sessionHeaders })] }));
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}
