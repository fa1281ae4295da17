/**
 * A decision nobody can take, said where it waits (its conversation) and in the inbox: why, in the server's words, and
 * the fix that applies. Operators get the fix as links (invite someone, assign it to someone who can, change the
 * policy); anyone else is told that the operators were told. Nothing is lowered or reassigned by itself.
 */
import { Link, paths } from "../lib/router";
import { useCan } from "../lib/session";
import type { Decision } from "../lib/trpc";
import { Notice } from "./Notice";

type Cause = NonNullable<Decision["undecidable"]>["cause"];

/** The fixes of each cause, in the order an operator would try them. */
const FIXES: Record<Cause, ("invite" | "assign" | "policy")[]> = {
  assignee_inactive: ["assign", "invite"],
  no_one_with_role: ["invite"],
  separation: ["invite", "policy"],
  quorum: ["invite"],
};

function Fix({ fix }: { fix: "invite" | "assign" | "policy" }) {
  if (fix === "invite") return <Link to={paths.people()}>Invite someone who can decide</Link>;
  if (fix === "assign") return <Link to={`${paths.reviews()}?view=undecidable`}>Assign it to someone who can</Link>;
  return <Link to={paths.policies()}>Allow self-approval in Policies</Link>;
}

export function UndecidableNotice({ decision }: { decision: Pick<Decision, "undecidable"> }) {
  const operator = useCan("operator");
  if (!decision.undecidable) return null;
  const { cause, reason } = decision.undecidable;
  return (
    <Notice tone="warning" title="Nobody can take this decision">
      It waits for no one who can decide: {reason}.{" "}
      {operator ? (
        <span className="undecidable-fixes">
          {FIXES[cause].map((fix, i) => (
            <span key={fix}>
              {i > 0 ? ", or " : "To fix it: "}
              <Fix fix={fix} />
            </span>
          ))}
          .
        </span>
      ) : (
        "The operators were told; they can invite someone, assign it or change the policy."
      )}
    </Notice>
  );
}
