/** The YAML workflows as the shared pages (components/WorkflowPages and the runs' table and header) name them. */
import { paths } from "../../../lib/router";
import type { WorkflowDoor } from "../../../lib/workflowDoor";

export const workflowsDoor: WorkflowDoor = { noun: "workflow", paths: paths.workflows };
