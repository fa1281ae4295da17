/**
 * A pipeline run as a conversation: the brief, each agent's work and output, each decision, errors
 * with their retry, the export at the end (or the cancellation that stopped the run), and the
 * reviewer's composer inline when it is their turn. The pipeline's agents (empty while they load)
 * come from the page, which has them from the agents feature.
 */
import { useEffect, useMemo, useState } from "react";
import { Conversation as Turns } from "../../../components/Conversation";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice, PageLoadError } from "../../../components/ErrorNotice";
import { RefusedDecisionCard } from "../../../components/RefusedDecisionCard";
import { Spinner } from "../../../components/Spinner";
import { useMayDecide, useOpenDecisions } from "../../../lib/decisions";
import { type RefusedDecision, useRefusedDecision } from "../../../lib/refusedDecision";
import { RunWatched } from "../../../lib/runChanges";
import { type AgentRef, type Conversation, type PipelineAgent, type RouterInputs, trpc } from "../../../lib/trpc";
import { useConversation } from "../api/get-conversation";
import { useApproveRun, useRejectRun, useRetryRun } from "../api/review-run";
import { agentNodeId } from "../utils/agentOf";
import { annotateConversation } from "../utils/annotate";
import { outputTarget, refusalContext } from "../utils/refusal";
import { useFollowNewMessages } from "../../../lib/useFollowNewMessages";
import { isRunCancellable } from "../../../lib/runStatus";
import { useOwnsRun } from "../../../lib/session";
import { EditBrief } from "./EditBrief";
import { AgentProgress } from "./AgentProgress";
import { ExportCard } from "./ExportCard";
import type { ForkTarget } from "../../../components/RerunFromHere";
import type { RetryControl } from "../../../components/Chat";
import { ErrorMessage, outputElementId, type TurnOf } from "./Messages";
import { pipelineTurnAdapter } from "./pipelineTurnAdapter";
import { ReviewComposer } from "./ReviewComposer";
import { RunHeader } from "./RunHeader";
import { useConversationFocus } from "../utils/useConversationFocus";
import "../pipeline-conversation.css";

type ReviewedOutput = NonNullable<RouterInputs["pipeline"]["approve"]["expected"]>;

/** The reviewer's form, where "Skip to the decision" leads: one per page, as a run waits for one review at a time. */
const decisionElementId = "decision";

/** Focus into the review form's feedback box (where a decision starts), brought into view. */
function focusDecision() {
  const form = document.getElementById(decisionElementId);
  const field = form?.querySelector<HTMLElement>("textarea, button");
  if (typeof form?.scrollIntoView === "function") form.scrollIntoView({ block: "nearest" });
  field?.focus();
}

export function ConversationView({ runId, agents }: { runId: string; agents: PipelineAgent[] }) {
  const conversation = useConversation(runId);

  // A failed refresh keeps the last good data on screen and says that updates paused. The run's decisions and comments
  // are read again when its change marker moves (useConversation), not polled each on its own.
  if (conversation.data) {
    return (
      <RunWatched.Provider value>
        <ConversationBody conversation={conversation.data} agents={agents} refreshError={conversation.refreshError} />
      </RunWatched.Provider>
    );
  }
  if (conversation.isError) {
    return (
      <PageLoadError permanent="This run could not be opened" transient="The conversation could not be loaded" error={conversation.error} onRetry={() => void conversation.refetch()} />
    );
  }
  return <ConversationSkeleton />;
}

function ConversationBody({ conversation, agents, refreshError }: { conversation: Conversation; agents: PipelineAgent[]; refreshError: unknown }) {
  const { run, turns } = conversation;
  const notes = useMemo(() => annotateConversation(conversation), [conversation]);
  const approve = useApproveRun();
  const reject = useRejectRun();
  const retry = useRetryRun();
  const { phase } = run.state;
  const agentNames = Object.fromEntries(agents.map((a) => [a.artifact_type, a.name]));
  const turnsRef = useFollowNewMessages(turns.length);
  // The review waiting now, from the inbox's record: who may take it, since when; only they read "your review".
  const decision = useOpenDecisions(run.run_id, run.is_waiting_for_user).only();
  const decidable = useMayDecide(decision);

  // The sidebar shows this run's state too; when the conversation sees it change, the list's marker is read at once,
  // and the list follows it (useRunList).
  const utils = trpc.useUtils();
  useEffect(() => {
    void utils.pipeline.listChanges.invalidate();
  }, [run.state.phase, run.state.agent, utils]);

  const awaiting = turns.find((t) => t.id === notes.awaitingArtifactId);
  const currentIndex = agents.findIndex((a) => a.slug === run.current_agent?.slug);
  const nextAgent = currentIndex >= 0 ? agents[currentIndex + 1] ?? null : null;
  // The output the reviewer is looking at: the server refuses a decision once another output is waiting.
  const expected: ReviewedOutput | undefined = awaiting?.kind === "output" && run.current_agent ? { agent: run.current_agent.slug, version: awaiting.body.version } : undefined;
  const decisionPending = approve.isPending ? "approve" : reject.isPending ? "reject" : null;
  const decisionError = approve.error ?? reject.error;

  // A decision someone else made first (409) keeps its text on a card where the composer was, until sent or discarded.
  const refusal = useRefusedDecision(`pipeline:${run.run_id}`);
  const refused = refusal.refused ? refusalContext(conversation, refusal.refused.target) : null;
  const [resendError, setResendError] = useState<unknown>(null);
  const draftKeyOf = (output: ReviewedOutput) => `pipeline:${run.run_id}:${output.agent}:v${output.version}`;
  /**
   * Sends a decision on `output`: resolves null once accepted, else the error. A 409 (someone moved the run on) is kept
   * as the refused decision with its text and the draft it came from; other errors stay on the mutation for the composer.
   */
  const send = async (action: "approve" | "reject", text: string, output: ReviewedOutput, draftKey = draftKeyOf(output)): Promise<unknown> => {
    approve.reset();
    reject.reset();
    setResendError(null);
    try {
      if (action === "approve") await approve.mutateAsync({ runId: run.run_id, expected: output, ...(text ? { comment: text } : {}) });
      else await reject.mutateAsync({ runId: run.run_id, feedback: text, expected: output });
      return null;
    } catch (error) {
      if (refusal.keep(error, { action, text, target: outputTarget(output), draftKey })) {
        approve.reset();
        reject.reset();
        void utils.pipeline.conversation.invalidate({ runId: run.run_id });
      }
      return error;
    }
  };
  const focus = useConversationFocus({ runId: run.run_id, awaitingId: notes.awaitingArtifactId, decidable });
  const decide = async (action: "approve" | "reject", text: string, output: ReviewedOutput) => {
    const accepted = (await send(action, text, output)) === null;
    if (accepted && awaiting) focus.afterDecision(awaiting.id);
    return accepted;
  };
  /** The refused text, sent again against the output waiting now; the card (and the draft it came from) goes once accepted. */
  const resend = async (sent: RefusedDecision, output: ReviewedOutput) => {
    const error = await send(sent.action, sent.text, output, sent.draftKey ?? undefined);
    if (error === null) refusal.forget(sent);
    else setResendError(error);
  };

  // The brief may change, and the first agent start over, until an output is approved (the server's rule too).
  const latestBrief = turns.findLast((t): t is TurnOf<"input"> => t.kind === "input");
  const ownsRun = useOwnsRun(run.submitted_by?.id);
  const mayEditBrief = ownsRun && isRunCancellable(run.state) && !turns.some((t) => t.kind === "decided" && t.body.decision === "approve");

  /**
   * "Re-run from here" at an agent: a fork of this run in which the agents before it keep their outputs and it drafts
   * afresh (from the brief, edited or not), or revises its output with a first feedback. The server says who may.
   */
  const forkAt = (agent: AgentRef): ForkTarget => ({
    runId: conversation.stitch_run_id, nodeId: agentNodeId(agent.slug), label: agent.name, nodeType: "Worker", input: null,
    inputLabel: "The brief the fork's agents read", text: { value: latestBrief?.body.value ?? run.brief, toInput: (brief) => ({ brief }) },
    latestLabel: "The pipeline in force now",
  });

  /** An agent in progress for longer than AGENT_STUCK_AFTER_MS: the server accepts a retry without a failure. */
  const stuck = run.retry_allowed && !run.failure;
  const retryControl: RetryControl = {
    pending: retry.isPending,
    error: retry.error,
    onRetry: () => retry.mutate({ runId: run.run_id }),
  };
  const adapter = pipelineTurnAdapter({
    runId: run.run_id, agents: conversation.agents, notes, decidable, reveal: focus.request, onSkipToDecision: focusDecision, retry: retryControl, stuck, forkAt,
    editBrief: latestBrief && mayEditBrief ? { turnId: latestBrief.id, control: <EditBrief runId={run.run_id} brief={latestBrief.body.value} firstAgentName={agents[0]?.name ?? "first"} /> } : null,
  });

  return (
    <div className="conversation">
      <RunHeader run={run} agents={conversation.agents} view="conversation" statusRef={focus.statusRef} exportable={turns.some((t) => t.kind === "output")} />
      {agents.length > 0 ? <AgentProgress agents={agents} conversation={conversation} outputHref={outputElementId} onJump={focus.reveal} /> : <div className="progress progress-placeholder" />}
      {refreshError ? <ErrorNotice title="Updates paused: the latest state could not be fetched" error={refreshError} /> : null}

      <div className="messages" ref={turnsRef} role="log" aria-label="Conversation" aria-live="polite">
        {turns.length === 0 ? <EmptyState title="Nothing here yet">The brief is being recorded.</EmptyState> : null}
        <Turns turns={turns} notes={notes} adapter={adapter} />
        {phase === "failed" && run.failure && !turns.some((t) => t.kind === "failed") ? (
          <ErrorMessage
            turn={{
              kind: "failed", id: "run-failure", at: run.updated_at, who: null, attempt: null,
              node: run.current_agent ? { id: agentNodeId(run.current_agent.slug), label: run.current_agent.name, type: "agent" } : null,
              body: { error: run.failure, retrying: false, retryable: true },
            }}
            retry={retryControl}
          />
        ) : null}
      </div>

      {refusal.refused ? (
        <RefusedDecisionCard
          refused={refusal.refused}
          subject={refused!.subject}
          change={refused!.change}
          resend={
            refused!.newer
              ? {
                  label: `Send against v${refused!.newer.version}`,
                  consequence:
                    refusal.refused.action === "approve"
                      ? `Approves ${refused!.newer.agent.name} v${refused!.newer.version} with this comment; read it first.`
                      : `Sends this request for changes on ${refused!.newer.agent.name} v${refused!.newer.version}.`,
                  pending: decisionPending !== null,
                  error: resendError,
                  onSend: () => void resend(refusal.refused!, { agent: refused!.newer!.agent.slug, version: refused!.newer!.version }),
                }
              : null
          }
          onDiscard={() => refusal.forget()}
        />
      ) : null}

      {run.is_waiting_for_user && run.current_agent && expected ? (
        <ReviewComposer
          key={outputTarget(expected)}
          id={decisionElementId}
          agentName={run.current_agent.name}
          version={expected.version}
          nextAgentName={nextAgent?.name ?? null}
          pending={decisionPending}
          error={resendError ? null : decisionError}
          decision={decision}
          draftKey={draftKeyOf(expected)}
          onApprove={(comment) => decide("approve", comment, expected)}
          onReject={(feedback) => decide("reject", feedback, expected)}
        />
      ) : null}

      {phase === "completed" ? <ExportCard runId={run.run_id} agentNames={agentNames} /> : null}
    </div>
  );
}

function ConversationSkeleton() {
  return (
    <div className="conversation" aria-busy="true">
      <div className="run-header">
        <span className="skeleton skeleton-title" />
        <span className="skeleton skeleton-line short" />
      </div>
      <div className="progress progress-placeholder" />
      <div className="messages">
        <div className="skeleton skeleton-bubble right" />
        <div className="skeleton skeleton-card" />
      </div>
      <p className="visually-hidden" role="status">
        <Spinner /> Loading the conversation…
      </p>
    </div>
  );
}
