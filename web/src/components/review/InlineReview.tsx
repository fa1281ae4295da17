/**
 * Where the conversations meet inline review. Each conversation (pipeline, YAML workflow, Stitch flow) shows the
 * output a person reviews inside `ReviewedOutput` and asks `useComposerReview` from its composer; the review feature
 * implements both and the app provides it (`InlineReviewProvider`), since features do not import each other. Without
 * a provider (a component rendered on its own, in tests) the output is shown as it is and the composer works alone.
 */
import { type ComponentType, type ReactNode, createContext, useContext } from "react";

/** Which output: the decision a run's node waits for (or waited for), and the version a message shows. */
export interface ReviewTarget {
  /** The front door's run id (a pipeline's `RUN_...`, a workflow's or a flow's run id). */
  runId: string;
  nodeId: string;
  /** When the front door's run has several engine runs. */
  engineRunId?: string;
  /** The version this message shows (a pipeline artifact's); the version under review when omitted. */
  version?: number;
  /** The conversation shows the node waiting for a decision now (so a closed one read before is out of date). */
  waiting?: boolean;
}

export interface ReviewedOutputProps {
  target: ReviewTarget;
  /** The agent's own account of its changes, shown beside the computed diff when there is one. */
  claim?: ReactNode;
  /** The output as the conversation renders it; under review its parts carry comment buttons (artifacts/parts.tsx). */
  children: ReactNode;
}

/** What a composer needs from inline review: the open comments a request for changes sends, and the draft kept on the server. */
export interface ComposerReview {
  openComments: number;
  /** The person's draft as the server kept it (another tab, another device), once read; null while unknown. */
  savedDraft: string | null;
  /** Keeps the text on the server, debounced. */
  saveDraft(text: string): void;
  /** Erases it, once the decision was accepted. */
  clearDraft(): void;
}

export interface InlineReviewImplementation {
  Output: ComponentType<ReviewedOutputProps>;
  useComposer(decisionId: string | undefined): ComposerReview;
}

const InlineReviewContext = createContext<InlineReviewImplementation | null>(null);

export function InlineReviewProvider({ implementation, children }: { implementation: InlineReviewImplementation; children: ReactNode }) {
  return <InlineReviewContext.Provider value={implementation}>{children}</InlineReviewContext.Provider>;
}

export function ReviewedOutput(props: ReviewedOutputProps) {
  const implementation = useContext(InlineReviewContext);
  if (!implementation) {
    return (
      <>
        {props.claim}
        {props.children}
      </>
    );
  }
  return <implementation.Output {...props} />;
}

const alone: ComposerReview = { openComments: 0, savedDraft: null, saveDraft: () => {}, clearDraft: () => {} };
const noComposerReview = () => alone;

/** The composer's side of inline review (the implementation is fixed for the app's lifetime, so its hooks always run). */
export function useComposerReview(decisionId: string | undefined): ComposerReview {
  const implementation = useContext(InlineReviewContext);
  return (implementation?.useComposer ?? noComposerReview)(decisionId);
}
