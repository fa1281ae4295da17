/**
 * The YAML workflows' front door, assembled: the projection is registered with the engine, the executor is handed
 * to the dispatcher, and the workflows in WORKFLOWS_DIR are registered at start-up (a file whose text is already the
 * latest version of its name adds nothing; a bad file is reported with its line and column and skipped).
 */
import type { RecordDecisions } from "../../decisions/record";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Database } from "../../../db/client";
import type { NodeExecutor } from "../../engine/dispatcher";
import type { Engine } from "../../engine/engine";
import type { LlmConfig } from "../../llm/chat";
import { WorkflowCommands } from "./commands";
import { YamlForkCommands } from "./forkCommands";
import { describeIssues } from "./loader";
import { InvalidWorkflow } from "./errors";
import { workflowExecutor } from "./executor";
import { workflowProjection } from "./projection";
import { WorkflowQueries } from "./queries";

export interface YamlWorkflowsOptions {
  /** Keeps the decisions its approvals and questions wait for (the decisions module's recorder). */
  recordDecisions: RecordDecisions;
  workflowsDir: string;
  workDir: string;
  cacheDir?: string;
  shellAllowed: boolean;
  llm: LlmConfig | undefined;
}

export interface YamlWorkflows {
  readonly commands: WorkflowCommands;
  readonly queries: WorkflowQueries;
  /** Forks of YAML runs (the plain flows' fork commands hand them here: `ForkCommands.forkOwnedBy`). */
  readonly forks: YamlForkCommands;
  /** Performs workflow nodes' work; the dispatcher runs it for dispatches of `data.executor: "workflow"`. */
  readonly executor: NodeExecutor;
  /** Registers the `*.yaml` files of WORKFLOWS_DIR; answers what it did and what it could not, file by file. */
  loadDirectory(): Promise<{ file: string; outcome: string }[]>;
}

export function installYamlWorkflows(database: Database, engine: Engine, options: YamlWorkflowsOptions): YamlWorkflows {
  engine.observe(workflowProjection(options.recordDecisions));
  const queries = new WorkflowQueries(database, engine);
  const commands = new WorkflowCommands(engine, queries, { shellAllowed: options.shellAllowed });
  const executor = workflowExecutor({ engine, database, workflowsDir: options.workflowsDir, workDir: options.workDir, cacheDir: options.cacheDir, llm: options.llm, shellAllowed: options.shellAllowed });
  return {
    commands,
    queries,
    forks: new YamlForkCommands(engine),
    executor,
    async loadDirectory() {
      let files: string[];
      try {
        files = (await readdir(options.workflowsDir)).filter((f) => /\.ya?ml$/i.test(f)).sort();
      } catch {
        return [];
      }
      const report: { file: string; outcome: string }[] = [];
      for (const file of files) {
        const path = join(options.workflowsDir, file);
        try {
          const registered = await commands.register(await readFile(path, "utf8"), { unlessUnchanged: true });
          report.push({ file: path, outcome: registered.unchanged ? `${registered.workflow.name} v${registered.workflow.version} (unchanged)` : `registered ${registered.workflow.name} v${registered.workflow.version}` });
        } catch (error) {
          if (!(error instanceof InvalidWorkflow)) throw error;
          report.push({ file: path, outcome: `not loaded:\n    ${describeIssues(error.issues).join("\n    ")}` });
        }
      }
      return report;
    },
  };
}
