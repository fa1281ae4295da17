/**
 * A workflow front door as the app's shared pages show it (the YAML workflows, the JSON step workflows): what one of
 * its workflows is called, and where its pages are. The shared components word their titles, labels and hints from
 * it, so both doors read alike.
 */
import type { WorkflowPaths } from "./router";

export interface WorkflowDoor {
  /** What one workflow of the door is called: "workflow", "step workflow". */
  noun: string;
  paths: WorkflowPaths;
}

/** The door's workflows as a list's title names them: "Workflows", "Step workflows". */
export const doorTitle = ({ noun }: WorkflowDoor): string => `${noun.charAt(0).toUpperCase()}${noun.slice(1)}s`;
