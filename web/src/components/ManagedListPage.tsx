/**
 * A page where an operator adds to a list and manages it (the people with their roles, the webhook subscriptions):
 * its title and what it is for, the form that adds, then the list under its own heading.
 */
import type { ReactNode } from "react";

export function ManagedListPage({ className, title, intro, form, listTitle, listId, sectionClassName, children }: {
  className: string;
  title: string;
  intro: ReactNode;
  /** The form that adds to the list. */
  form: ReactNode;
  listTitle: string;
  /** The list heading's element id (the section is labelled by it). */
  listId: string;
  sectionClassName: string;
  /** The list. */
  children: ReactNode;
}) {
  return (
    <div className={`page-pad ${className}`}>
      <header className="run-header">
        <h1 className="run-title">{title}</h1>
        <p className="muted small">{intro}</p>
      </header>
      {form}
      <section className={sectionClassName} aria-labelledby={listId}>
        <h2 id={listId} className="section-title">
          {listTitle}
        </h2>
        {children}
      </section>
    </div>
  );
}
