import type { Engine } from "../engine/engine";
import type { Pipeline } from "../pipeline/pipeline";
import type { StepWorkflows } from "../workflows/steps/steps";
import type { YamlWorkflows } from "../workflows/yaml/workflows";

export interface AppContext {
  engine: Engine;
  pipeline: Pipeline;
  workflows: YamlWorkflows;
  steps: StepWorkflows;
  /** Who is acting, when the client says (the app sends the reviewer's name); recorded with the event. */
  actor: string | null;
}
