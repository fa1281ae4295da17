/** A flow node's avatar: a glyph by its type (Worker W, UX U, Splitter S, Collector C). */
import { GlyphAvatar } from "../../../components/AgentAvatar";

const glyph: Record<string, string> = { Worker: "W", UX: "U", Splitter: "S", Collector: "C" };

export function FlowNodeAvatar({ type }: { type: string }) {
  return <GlyphAvatar className={`avatar-flow type-${type.toLowerCase()}`} glyph={glyph[type] ?? "•"} />;
}
