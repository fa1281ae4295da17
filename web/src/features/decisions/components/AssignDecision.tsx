/**
 * An operator hands an open decision to someone: a person whose role covers what it asks (for a decision that needs
 * several approvers, only a role), or back to everyone with a role. The choice is kept until it is sent; a refusal
 * (the person was disabled meanwhile, the decision closed) says why, in place.
 */
import { useState } from "react";
import { SelectField } from "../../../components/SelectField";
import { useCan } from "../../../lib/session";
import type { Decision } from "../../../lib/trpc";
import { useAssignableAccounts, useAssignDecision } from "../api/decisions";
import { assignTargets } from "../utils/decisions";

export function AssignDecision({ decision }: { decision: Decision }) {
  const operator = useCan("operator");
  const accounts = useAssignableAccounts(operator);
  const assign = useAssignDecision();
  const [target, setTarget] = useState("");
  if (!operator) return null;
  const targets = assignTargets(decision, accounts.data ?? []);
  const chosen = targets.find((t) => t.value === target);
  return (
    <form
      className="inbox-assign"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen) assign.mutate({ decisionId: decision.id, to: chosen.to }, { onSuccess: () => setTarget("") });
      }}
    >
      <SelectField
        label={`Assign "${decision.title}" to`}
        className="inbox-assign-field"
        value={target}
        onChange={(event) => setTarget(event.target.value)}
        options={[{ value: "", label: "Choose someone…" }, ...targets.map(({ value, label }) => ({ value, label }))]}
        error={assign.error?.message ?? null}
      />
      <button type="submit" className="button button-secondary button-small" disabled={!chosen || assign.isPending} aria-busy={assign.isPending}>
        {chosen ? `Assign to ${chosen.short}` : "Assign"}
      </button>
    </form>
  );
}
