import type { Engine } from "../engine/engine";

export interface AppContext {
  engine: Engine;
  /** Who is acting, when the client says (the app sends the reviewer's name); recorded with the event. */
  actor: string | null;
}
