/**
 * Where a person lands after signing in and on the brand link: where their work is. One rule, for every role:
 * - an operator: the decisions nobody can take, else the latest failed run (its page offers Retry), else what waits
 *   for them in the inbox; with nothing of that, the new brief;
 * - a reviewer: the inbox when a decision waits for her, else the new brief;
 * - an analyst: the new brief, beside her runs.
 */
import { paths } from "./router";
import { roleAllows } from "./session";
import type { Role } from "./trpc";

export interface LandingFacts {
  /** Open decisions the person may take. */
  waitingForMe: number;
  /** Open decisions nobody can take. */
  undecidable: number;
  /** The newest pipeline run that failed and waits for an operator's retry, if any. */
  failedRunId: string | null;
}

export function landingPath(role: Role | null, facts: LandingFacts): string {
  if (roleAllows(role, "operator")) {
    if (facts.undecidable > 0) return `${paths.reviews()}?view=undecidable`;
    if (facts.failedRunId) return paths.run(facts.failedRunId);
  }
  if (roleAllows(role, "reviewer") && facts.waitingForMe > 0) return paths.reviews();
  return paths.home();
}
