/** The head of a composer under a turn that waits for a person: what it is, what sending it does, and who it waits for. */
import type { ReactNode } from "react";
import type { Decision } from "../lib/trpc";
import { WaitingForWithHistory } from "./WaitingFor";

export function ComposerHead({ title, consequence, decision }: { title: ReactNode; consequence: ReactNode; decision: Decision | undefined }) {
  return (
    <div className="composer-head">
      <h2 className="composer-title">{title}</h2>
      <p className="composer-sub">{consequence}</p>
      {decision ? <WaitingForWithHistory decision={decision} /> : null}
    </div>
  );
}
