/**
 * The signed-in person in the top bar: their name and role, and under it (a disclosure) what their role may do,
 * the pages about people and settings (People, Subscriptions, Audit and Policies for operators; API tokens and My settings for
 * everyone) and "Sign out".
 */
import { useEffect, useId, useRef, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { Link, paths } from "../../../lib/router";
import { roleDescriptions, useCan, useMe, withArticle } from "../../../lib/session";
import { useSignOut } from "../api/auth";
import "../people.css";

const viaText = { bootstrap: "the bootstrap token (STITCH_BOOTSTRAP_TOKEN)", token: "an API token" } as const;

export function AccountMenu() {
  const me = useMe();
  const operator = useCan("operator");
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  if (!me) return null;
  const close = () => setOpen(false);
  const links = [
    { to: paths.settings(), label: "My settings" },
    ...(operator ? [{ to: paths.people(), label: "People" }] : []),
    { to: paths.tokens(), label: "API tokens" },
    ...(operator ? [{ to: paths.subscriptions(), label: "Subscriptions" }] : []),
    ...(operator ? [{ to: paths.audit(), label: "Audit" }] : []),
    ...(operator ? [{ to: paths.policies(), label: "Policies" }] : []),
  ];
  return (
    <div className="account-menu" ref={rootRef}>
      <button ref={buttonRef} type="button" className="account-button" aria-expanded={open} aria-controls={open ? panelId : undefined} onClick={() => setOpen((o) => !o)}>
        <span className="account-initial" aria-hidden="true">
          {me.name.trim().charAt(0).toUpperCase() || "?"}
        </span>
        {/* Named by what it shows, name then role, with no aria-label to drift from it (WCAG 2.5.3, label in name); on a
            phone only the initial shows, and the name and role are there for a screen reader still. */}
        <span className="account-name">{me.name}</span>{" "}
        <span className="tag account-role">{me.role}</span>
        <svg className={`icon account-chevron${open ? " open" : ""}`} viewBox="0 0 20 20" aria-hidden="true">
          <path d="M6 8l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {open ? (
        <div id={panelId} className="account-panel">
          <p className="account-who">
            <strong>{me.name}</strong>
            {me.email ? <span className="muted small">{me.email}</span> : null}
          </p>
          <p className="muted small">
            Signed in as {withArticle(me.role)}, who {roleDescriptions[me.role]}.
          </p>
          <nav aria-label="Account">
            <ul className="account-links">
              {links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="account-link" onNavigate={close}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {me.via === "session" ? (
            <button type="button" className="button button-secondary account-sign-out" disabled={signOut.isPending} aria-busy={signOut.isPending} onClick={() => signOut.mutate()}>
              {signOut.isPending ? <Spinner /> : null}
              Sign out
            </button>
          ) : (
            <p className="muted small">Signed in with {viaText[me.via as keyof typeof viaText] ?? me.via}: there is no session to end.</p>
          )}
          {signOut.error && !signOut.isPending ? <ErrorNotice title="You were not signed out" error={signOut.error} /> : null}
        </div>
      ) : null}
    </div>
  );
}
