import type { Engine } from "../engine/engine";
import type { PipelineService } from "../pipeline/service";

export interface AppContext {
  engine: Engine;
  pipeline: PipelineService;
  /** Who is acting, when the client says (the app sends the reviewer's name); recorded with the event. */
  actor: string | null;
}
