/**
 * The server's verdict on a definition as it is being written: `workflows.validate` a short while after the last
 * keystroke, its problems and warnings located in the text. Only the answer to the latest text counts; an answer
 * that arrives after the text changed again is dropped.
 */
import { useEffect, useRef, useState } from "react";
import { trpc, type WorkflowIssue } from "../../../lib/trpc";
import { locatedIssuesOf } from "../utils/issues";

export const validationDelayMs = 400;

export type CheckStatus = "empty" | "checking" | "valid" | "invalid" | "unchecked";

export interface Check {
  status: CheckStatus;
  problems: readonly WorkflowIssue[];
  warnings: readonly WorkflowIssue[];
  /** Why the text could not be checked (the server unreachable, say), when `status` is "unchecked". */
  error: unknown;
}

interface Verdict {
  yaml: string;
  status: "valid" | "invalid" | "unchecked";
  problems: readonly WorkflowIssue[];
  warnings: readonly WorkflowIssue[];
  error: unknown;
}

const none: readonly WorkflowIssue[] = [];

/**
 * The check of `yaml`. While a newer text waits for its answer, the previous answer's problems stay on screen
 * (the status says "checking"), so the list does not flicker on every keystroke.
 */
export function useLiveValidation(yaml: string, delayMs = validationDelayMs): Check {
  const { mutateAsync } = trpc.workflows.validate.useMutation();
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    if (yaml.trim() === "") return;
    const timer = setTimeout(() => {
      mutateAsync({ yaml }).then(
        (answer) => {
          if (request === latest.current) setVerdict({ yaml, status: "valid", problems: none, warnings: answer.warnings, error: null });
        },
        (error: unknown) => {
          if (request !== latest.current) return;
          const located = locatedIssuesOf(error);
          setVerdict(located ? { yaml, status: "invalid", ...located, error: null } : { yaml, status: "unchecked", problems: none, warnings: none, error });
        },
      );
    }, delayMs);
    return () => clearTimeout(timer);
  }, [yaml, delayMs, mutateAsync]);

  if (yaml.trim() === "") return { status: "empty", problems: none, warnings: none, error: null };
  if (!verdict) return { status: "checking", problems: none, warnings: none, error: null };
  return { status: verdict.yaml === yaml ? verdict.status : "checking", problems: verdict.problems, warnings: verdict.warnings, error: verdict.error };
}
