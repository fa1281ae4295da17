/**
 * A small history-API router: the app has a dozen routes under /app, so a path matcher, a Link and
 * navigate() are all it needs. Links are real <a href> elements, so they open in new tabs and work
 * from the keyboard; a plain left click is handled in the page.
 */
import { type AnchorHTMLAttributes, createContext, type MouseEvent, useContext, useSyncExternalStore } from "react";

const changeEvent = "stitch:navigate";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("popstate", onChange);
  window.addEventListener(changeEvent, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(changeEvent, onChange);
  };
}

/** The path the app is drawn for where there is no `window`: on the server (web/src/serverRender.tsx). */
export const ServerPathname = createContext("/app");

export function usePathname(): string {
  const serverPathname = useContext(ServerPathname);
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => serverPathname,
  );
}

/** Which section of the app a page was opened from, kept in the history entry (it survives a reload, not a new tab). */
export interface ArrivedFrom {
  section: "inbox";
}

export function navigate(to: string, options: { replace?: boolean; from?: ArrivedFrom } = {}): void {
  const state = options.from ?? null;
  if (options.replace) window.history.replaceState(state, "", to);
  else window.history.pushState(state, "", to);
  window.dispatchEvent(new Event(changeEvent));
}

/** The section the current page was opened from (the inbox's link to a run), read with the path it came with. */
export function arrivedFrom(): ArrivedFrom | null {
  if (typeof window === "undefined") return null;
  const state: unknown = window.history.state;
  return typeof state === "object" && state !== null && (state as { section?: unknown }).section === "inbox" ? { section: "inbox" } : null;
}

/** Matches "/app/runs/:runId" against a path; returns the decoded params or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const patternParts = pattern.split("/").filter(Boolean);
  const pathParts = pathname.replace(/\/+$/, "").split("/").filter(Boolean);
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < patternParts.length; i++) {
    const expected = patternParts[i]!;
    const actual = pathParts[i]!;
    if (expected.startsWith(":")) params[expected.slice(1)] = decodeURIComponent(actual);
    else if (expected !== actual) return null;
  }
  return params;
}

/** The pages of a workflow front door under `base`: its list, "New", one workflow, one run and the run's graph. */
function workflowPaths(base: string) {
  return {
    list: () => base,
    create: () => `${base}/new`,
    workflow: (name: string) => `${base}/${encodeURIComponent(name)}`,
    run: (runId: string) => `${base}/runs/${encodeURIComponent(runId)}`,
    runGraph: (runId: string) => `${base}/runs/${encodeURIComponent(runId)}/graph`,
  };
}

export type WorkflowPaths = ReturnType<typeof workflowPaths>;

export const paths = {
  home: () => "/app",
  reviews: () => "/app/reviews",
  run: (runId: string) => `/app/runs/${encodeURIComponent(runId)}`,
  runGraph: (runId: string) => `/app/runs/${encodeURIComponent(runId)}/graph`,
  engineRuns: () => "/app/engine",
  engineRun: (stitchRunId: string) => `/app/engine/runs/${encodeURIComponent(stitchRunId)}`,
  /** The plain flows' designer: the list, a new flow, one flow (a version of it), and a run drawn over the version it ran. */
  flows: {
    list: () => "/app/flows",
    create: () => "/app/flows/new",
    flow: (flowId: string, version?: number) => `/app/flows/${encodeURIComponent(flowId)}${version === undefined ? "" : `/versions/${version}`}`,
    run: (runId: string) => `/app/flows/runs/${encodeURIComponent(runId)}/design`,
  },
  /** A plain flow's run (one no front door owns): its conversation, and its graph under the same header. */
  flowRun: (runId: string) => `/app/flows/runs/${encodeURIComponent(runId)}`,
  flowRunGraph: (runId: string) => `/app/flows/runs/${encodeURIComponent(runId)}/graph`,
  /** Two runs of one flow side by side, node by node, whichever front door they belong to (a pipeline run by its RUN_ id). */
  runCompare: (a: string, b: string) => `/app/runs/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`,
  /** The same comparison under the plain flows' runs (kept: links to it were handed out). */
  flowRunCompare: (a: string, b: string) => `/app/flows/runs/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`,
  /** The YAML workflows. */
  workflows: workflowPaths("/app/workflows"),
  /** The JSON step workflows. */
  steps: workflowPaths("/app/steps"),
  people: () => "/app/people",
  tokens: () => "/app/tokens",
  audit: () => "/app/audit",
  subscriptions: () => "/app/subscriptions",
  /** Operators' policies: separation of duties where a definition is silent. */
  policies: () => "/app/policies",
  /** A person's own settings; emails link here to turn them off (server/http/paths.ts `appPagePaths.settings`). */
  settings: () => "/app/settings",
};

/** Where the app shows a run of any front door: its engine run's id, and the front door that owns it (null: a plain flow's). */
export function runPageOf(run: { id: string; owner: { front_door: "pipeline" | "yaml" | "steps"; run_id: string } | null }): string {
  switch (run.owner?.front_door) {
    case "pipeline":
      return paths.run(run.owner.run_id);
    case "yaml":
      return paths.workflows.run(run.id);
    case "steps":
      return paths.steps.run(run.id);
    default:
      return paths.flowRun(run.id);
  }
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; onNavigate?: () => void; from?: ArrivedFrom };

export function Link({ to, onClick, onNavigate, from, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (window.location.pathname !== to) navigate(to, from ? { from } : {});
    onNavigate?.();
  };
  return <a href={to} onClick={handleClick} {...rest} />;
}
