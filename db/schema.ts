/**
 * The database schema: drizzle tables, each followed by its inferred row types.
 * Migrations are generated from this file by drizzle-kit (`npm run db:generate`) and never edited once committed.
 */
import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { StitchGraph } from "../server/engine/schemas";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow();

/** Requirement 1: flow definitions. A flow's graph is immutable once stored; runs read it on every event. */
export const stitchFlows = pgTable("stitch_flows", {
  id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
  name: text("name").notNull(),
  graph: jsonb("graph").$type<StitchGraph>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type FlowRow = typeof stitchFlows.$inferSelect;

/**
 * Requirement 2: one row per run. Its row lock serialises the events of one run (one transaction per event);
 * the counters let the run's status be derived without scanning its nodes.
 */
export const stitchRuns = pgTable(
  "stitch_runs",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    flowId: uuid("flow_id").notNull().references(() => stitchFlows.id),
    status: text("status").notNull().default("running"),
    input: jsonb("input"),
    runningCount: integer("running_count").notNull().default(0),
    waitingCount: integer("waiting_count").notNull().default(0),
    failedCount: integer("failed_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("stitch_runs_created_idx").on(t.createdAt)],
);
export type RunRow = typeof stitchRuns.$inferSelect;

/**
 * The run's `node_states` (Requirements 2.3-2.6 and 6.5), one row per node and per splitter path (`nodeId_0`, ...),
 * so that one callback updates one row whatever the size of the run. The API assembles them into the
 * `node_states` JSONB object the seed defines, and the view `stitch_runs_with_node_states` does the same in SQL.
 */
export const stitchNodeStates = pgTable(
  "stitch_node_states",
  {
    runId: uuid("run_id").notNull().references(() => stitchRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    status: text("status").notNull(),
    output: jsonb("output"),
    error: text("error"),
    input: jsonb("input"),
    attempt: integer("attempt").notNull().default(0),
    pathTotal: integer("path_total"),
    pathDone: integer("path_done").notNull().default(0),
    pathFailed: integer("path_failed").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.nodeId] })],
);
export type NodeStateRow = typeof stitchNodeStates.$inferSelect;

/**
 * The outbox: webhook deliveries written in the same transaction as the state change that causes them,
 * claimed with FOR UPDATE SKIP LOCKED by any process, retried with backoff, deleted once delivered.
 */
export const stitchDispatches = pgTable(
  "stitch_dispatches",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    runId: uuid("run_id").notNull().references(() => stitchRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    nodeAttempt: integer("node_attempt").notNull(),
    url: text("url").notNull(),
    payload: jsonb("payload").notNull(),
    deliveries: integer("deliveries").notNull().default(0),
    runAt: timestamp("run_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "string" }),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [index("stitch_dispatches_due_idx").on(t.runAt), index("stitch_dispatches_node_idx").on(t.runId, t.nodeId)],
);
export type DispatchRow = typeof stitchDispatches.$inferSelect;

/** Every accepted external event, in order: who completed, approved or rejected what, and every callback. */
export const stitchRunEvents = pgTable(
  "stitch_run_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    runId: uuid("run_id").notNull().references(() => stitchRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id"),
    type: text("type").notNull(),
    payload: jsonb("payload"),
    actor: text("actor"),
    createdAt: createdAt(),
  },
  (t) => [index("stitch_run_events_run_idx").on(t.runId, t.id)],
);
export type RunEventRow = typeof stitchRunEvents.$inferSelect;
