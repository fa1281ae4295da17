// The tools' services built from the environment: which graph, which outbound policy, which LLM.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../lib/configError";
import { toolServicesFromEnv } from "./context";

describe("toolServicesFromEnv", () => {
  it("uses the embedded graph under the data directory, no LLM and public addresses only by default", () => {
    const services = toolServicesFromEnv({}, "/tmp/stitch-data");
    expect(services.graph.description).toBe("the embedded graph (Ladybug) at /tmp/stitch-data/graph/graph.lbug");
    expect(services.llm).toBeUndefined();
    expect(services.outbound).toEqual({ allowedRanges: [], allowedHosts: [] });
  });

  it("uses Neo4j when NEO4J_URL is set (connecting only on first use), and reads LLM_* and OUTBOUND_ALLOW", () => {
    const services = toolServicesFromEnv({ NEO4J_URL: "bolt://127.0.0.1:7687", LLM_BASE_URL: "http://127.0.0.1:11434/v1", LLM_MODEL: "llama3.1", OUTBOUND_ALLOW: "localhost" }, "/tmp/x");
    expect(services.graph.description).toBe("Neo4j at bolt://127.0.0.1:7687");
    expect(services.llm).toMatchObject({ baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.1" });
    expect(services.outbound.allowedHosts).toEqual(["localhost"]);
  });

  it("refuses a bad OUTBOUND_ALLOW at once", () => {
    expect(() => toolServicesFromEnv({ OUTBOUND_ALLOW: "10.0.0.0/8, ::bad::" }, "/tmp/x")).toThrow(ConfigError);
  });
});
