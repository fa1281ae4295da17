/**
 * The shell: top bar (with the signed-in person), the sidebar (the runs; a drawer on narrow screens) and the current
 * page, behind the sign-in gate.
 */
import type { QueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, arrivedFrom, paths, usePathname } from "../lib/router";
import { useCan } from "../lib/session";
import { useDecisionCount } from "../features/decisions/api/decisions";
import { useDecisionNotifications } from "../features/decisions/api/notifications";
import { withCount } from "../features/decisions/utils/decisions";
import { AccountMenu } from "../features/people/components/AccountMenu";
import { AuthGate } from "../features/people/components/AuthGate";
import { RunList } from "../features/runs/components/RunList";
import { inlineReview } from "../features/review/inlineReview";
import { InlineReviewProvider } from "../components/review/InlineReview";
import { AppProvider } from "./provider";
import { resolveRoute } from "./routes";
import "./shell.css";

function Shell() {
  const pathname = usePathname();
  const route = resolveRoute(pathname);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // On a phone the sections are a menu behind one button (every destination one tap away); on wider screens, a row.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const mainRef = useRef<HTMLElement>(null);
  const closeDrawer = () => setDrawerOpen(false);
  const closeMenu = () => setMenuOpen(false);

  // Decisions waiting for me: counted in the navigation and in front of the tab title, so a reviewer sees them from any tab.
  const reviewer = useCan("reviewer");
  const waiting = useDecisionCount(reviewer).data;
  // And, once the person turned them on in Reviews, a browser notification for each decision newly waiting for them.
  useDecisionNotifications(reviewer);
  useEffect(() => {
    document.title = withCount(`${route.title} · Stitch`, reviewer ? waiting : undefined);
  }, [route.title, reviewer, waiting]);

  // A new page starts at its top, and keyboard focus moves to it as a full page load would, unless
  // the page already put focus somewhere inside itself (the brief composer focuses "Domain").
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo(0, 0);
    if (!mainRef.current?.contains(document.activeElement)) mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  // The drawer and the sections menu are a narrow screen's (shell.css, max-width 820px): crossing that width either way
  // closes them, so a drawer opened on a phone does not come back as an overlay after the window was widened and narrowed.
  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const narrow = window.matchMedia("(max-width: 820px)");
    const onChange = () => {
      setDrawerOpen(false);
      setMenuOpen(false);
    };
    narrow.addEventListener("change", onChange);
    return () => narrow.removeEventListener("change", onChange);
  }, []);

  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setDrawerOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [drawerOpen]);

  // The sections menu closes on Escape (focus back on its button) and on a click anywhere outside it.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      menuButtonRef.current?.focus();
    };
    const onClick = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!document.getElementById("sections")?.contains(target) && !menuButtonRef.current?.contains(target)) setMenuOpen(false);
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("click", onClick);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("click", onClick);
    };
  }, [menuOpen]);

  // A run opened from the inbox (or a notification of a decision) is still the reviewer's errand: "Reviews" stays lit.
  const section = pathname.startsWith("/app/reviews") || arrivedFrom()?.section === "inbox"
    ? "inbox"
    : pathname.startsWith("/app/engine") || (pathname.startsWith("/app/flows/runs/") && !pathname.endsWith("/design"))
    ? "engine"
    : pathname.startsWith("/app/flows")
    ? "flows"
    : pathname.startsWith("/app/workflows")
      ? "workflows"
      : pathname.startsWith("/app/steps")
        ? "steps"
        : /^\/app\/(people|tokens|audit|subscriptions|policies|settings)(\/|$)/.test(pathname)
          ? "account"
          : "briefs";
  return (
    <div className={`shell${drawerOpen ? " drawer-open" : ""}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="icon-button drawer-toggle"
          aria-expanded={drawerOpen}
          aria-controls="sidebar"
          onClick={() => {
            setMenuOpen(false);
            setDrawerOpen((open) => !open);
          }}
        >
          <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <span className="visually-hidden">Show runs</span>
        </button>
        {/* Named on its own: on a phone the word "Stitch" is hidden and only the mark shows. It leads where the person's work is (lib/landing.ts). */}
        <Link to="/" className="brand" aria-label="Stitch, home: where your work is">
          <span className="brand-mark" aria-hidden="true">
            <svg viewBox="0 0 32 32">
              <rect width="32" height="32" rx="8" fill="currentColor" />
              <path d="M9 11h14M9 16h10M9 21h14" stroke="white" strokeWidth="2.5" strokeLinecap="round" strokeDasharray="3 2" />
            </svg>
          </span>
          <span className="brand-name">Stitch</span>
        </Link>
        <button
          ref={menuButtonRef}
          type="button"
          className="button button-secondary button-small sections-toggle"
          aria-expanded={menuOpen}
          aria-controls="sections"
          onClick={() => {
            setDrawerOpen(false);
            setMenuOpen((open) => !open);
          }}
        >
          <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M4 6l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          Menu
          {reviewer && waiting ? <span className="nav-count">{waiting}<span className="visually-hidden"> waiting for you</span></span> : null}
        </button>
        <nav id="sections" className={`topnav${menuOpen ? " is-open" : ""}`} aria-label="Sections">
          <Link to={paths.reviews()} className="topnav-link" onNavigate={closeMenu} aria-current={section === "inbox" ? "page" : undefined}>
            Reviews
            {reviewer && waiting ? (
              <span className="nav-count">
                {waiting}
                <span className="visually-hidden"> waiting for you</span>
              </span>
            ) : null}
          </Link>
          <Link to={paths.home()} className="topnav-link" onNavigate={closeMenu} aria-current={section === "briefs" ? "page" : undefined}>
            Briefs
          </Link>
          <Link to={paths.workflows.list()} className="topnav-link" onNavigate={closeMenu} aria-current={section === "workflows" ? "page" : undefined}>
            Workflows
          </Link>
          <Link to={paths.steps.list()} className="topnav-link" onNavigate={closeMenu} aria-current={section === "steps" ? "page" : undefined}>
            Step workflows
          </Link>
          <Link to={paths.flows.list()} className="topnav-link" onNavigate={closeMenu} aria-current={section === "flows" ? "page" : undefined}>
            Flows
          </Link>
          <Link to={paths.engineRuns()} className="topnav-link" onNavigate={closeMenu} aria-current={section === "engine" ? "page" : undefined}>
            Engine runs
          </Link>
        </nav>
        <AccountMenu />
      </header>
      <div className="body">
        <aside id="sidebar" className="sidebar">
          <div className="sidebar-inner">
            <Link to={paths.home()} className="button button-primary new-brief-button" onNavigate={closeDrawer}>
              <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
                <path d="M10 4v12M4 10h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
              New brief
            </Link>
            <RunList activeRunId={route.runId} onNavigate={closeDrawer} />
          </div>
        </aside>
        <div className="scrim" onClick={closeDrawer} aria-hidden="true" />
        <main id="main" className="main" ref={mainRef} tabIndex={-1}>
          {route.page}
        </main>
      </div>
    </div>
  );
}

export function App({ queryClient }: { queryClient?: QueryClient } = {}) {
  return (
    <AppProvider client={queryClient}>
      <AuthGate>
        {/* Inline review (comments on parts, diffs, edits) in every conversation: features meet here. */}
        <InlineReviewProvider implementation={inlineReview}>
          <Shell />
        </InlineReviewProvider>
      </AuthGate>
    </AppProvider>
  );
}
