/** The JSON step workflows as the shared pages (components/WorkflowPages and the runs' table and header) name them. */
import { paths } from "../../../lib/router";
import type { WorkflowDoor } from "../../../lib/workflowDoor";

export const stepsDoor: WorkflowDoor = { noun: "step workflow", paths: paths.steps };
