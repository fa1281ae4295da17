/**
 * A page for some roles only (People and the audit trail for operators, writing a workflow for operators): anyone
 * else reads which role it needs instead of a page whose every call the server would refuse.
 */
import type { ReactNode } from "react";
import type { Role } from "../lib/trpc";
import { useCan, useRole, withArticle } from "../lib/session";
import { EmptyState } from "./EmptyState";

export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const can = useCan(role);
  const mine = useRole();
  if (can) return children;
  return (
    <div className="page-pad">
      <EmptyState title={`This page is for ${role}s`}>
        <p>You are signed in as {mine ? withArticle(mine) : "no one"}. Ask an operator if you need the {role} role.</p>
      </EmptyState>
    </div>
  );
}
