import type { Engine } from "../engine/engine";
import type { Pipeline } from "../pipeline/pipeline";

export interface AppContext {
  engine: Engine;
  pipeline: Pipeline;
  /** Who is acting, when the client says (the app sends the reviewer's name); recorded with the event. */
  actor: string | null;
}
