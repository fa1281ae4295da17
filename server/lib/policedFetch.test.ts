// Fetching under the outbound-address policy (policedFetch.ts, judging with outboundPolicy.ts). No test sends anything
// beyond 127.0.0.1: refused addresses are refused before any connection (net.connect is watched and would throw), and
// host names resolve through a stubbed resolver.
import type { LookupAddress } from "node:dns";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PUBLIC_ONLY, parseOutboundAllow } from "./outboundPolicy";
import { BadPort, OutboundRefusal, checkUrl, policedFetch, policedRequest, readBodyLimited } from "./policedFetch";

const LOOPBACK = parseOutboundAllow("127.0.0.1/8");

/** A stubbed `dns.promises.lookup`: each name answers the given addresses; the calls are counted. */
function resolver(answers: Record<string, string[]>) {
  return vi.fn(async (hostname: string): Promise<LookupAddress[]> => {
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  });
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let server: Server | undefined;
let received: { method?: string; url?: string; host?: string }[] = [];

async function standIn(handler: Handler): Promise<string> {
  received = [];
  server = createServer((request, response) => {
    received.push({ method: request.method, url: request.url, host: request.headers.host });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

/** Where sockets were opened; any address but loopback throws instead of connecting. */
let connects: string[] = [];
beforeEach(() => {
  connects = [];
  const real = net.connect.bind(net) as (...args: unknown[]) => net.Socket;
  vi.spyOn(net, "connect").mockImplementation(((...args: unknown[]) => {
    const options = args[0] as { host?: string; lookup?: unknown };
    const host = String(options.host);
    connects.push(host);
    if (net.isIP(host) && !host.startsWith("127.")) throw new Error(`test guard: no connection to ${host}`);
    return real(...args);
  }) as typeof net.connect);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe("checkUrl", () => {
  it("always refuses link-local and cloud-metadata addresses, even when OUTBOUND_ALLOW lists their range", async () => {
    const everything = parseOutboundAllow("169.254.0.0/16, fc00::/7, 100.64.0.0/10, fe80::/10");
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/",
      "http://100.100.100.200/",
      "http://[fe80::1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[64:ff9b::a9fe:a9fe]/",
      "http://0xa9.254.169.254/",
    ]) {
      const result = await checkUrl(url, everything);
      expect(result, url).toMatchObject({ ok: false, reason: expect.stringContaining("always refused") });
    }
  });

  it("refuses addresses that are no single host", async () => {
    for (const url of ["http://0.0.0.0/", "http://[::]/", "http://224.0.0.1/", "http://255.255.255.255/"]) {
      expect(await checkUrl(url, LOOPBACK), url).toMatchObject({ ok: false, reason: expect.stringContaining("always refused") });
    }
  });

  it("refuses a private address that OUTBOUND_ALLOW does not list, and allows one it lists", async () => {
    const tenOnly = parseOutboundAllow("10.0.0.0/8");
    expect(await checkUrl("http://192.168.1.10/", tenOnly)).toMatchObject({ ok: false, reason: expect.stringContaining("OUTBOUND_ALLOW") });
    expect(await checkUrl("http://172.20.0.1/", PUBLIC_ONLY)).toMatchObject({ ok: false });
    expect(await checkUrl("http://100.64.1.1/", PUBLIC_ONLY)).toMatchObject({ ok: false });
    expect(await checkUrl("http://[fd12::1]/", PUBLIC_ONLY)).toMatchObject({ ok: false });
    expect(await checkUrl("http://10.1.2.3:8080/x", tenOnly)).toEqual({ ok: true, address: "10.1.2.3", family: 4 });
  });

  it("refuses loopback unless listed, by range or by host name", async () => {
    expect(await checkUrl("http://127.0.0.1/", PUBLIC_ONLY)).toMatchObject({ ok: false, reason: expect.stringContaining("loopback") });
    expect(await checkUrl("http://[::1]/", LOOPBACK)).toMatchObject({ ok: false });
    expect(await checkUrl("http://127.0.0.2/", LOOPBACK)).toEqual({ ok: true, address: "127.0.0.2", family: 4 });
    const lookup = resolver({ localhost: ["127.0.0.1", "::1"] });
    expect(await checkUrl("http://localhost/", PUBLIC_ONLY, { lookup })).toMatchObject({ ok: false });
    expect(await checkUrl("http://localhost/", parseOutboundAllow("localhost"), { lookup })).toEqual({ ok: true, address: "127.0.0.1", family: 4 });
  });

  it("judges a host name by every address it resolves to", async () => {
    const lookup = resolver({ "metadata.example": ["169.254.169.254"], "mixed.example": ["93.184.216.34", "169.254.169.254"], "public.example": ["93.184.216.34"] });
    expect(await checkUrl("http://metadata.example/latest/", LOOPBACK, { lookup })).toMatchObject({
      ok: false,
      reason: "metadata.example resolves to 169.254.169.254, which is a link-local or cloud-metadata address, which is always refused",
    });
    expect(await checkUrl("https://mixed.example/", PUBLIC_ONLY, { lookup })).toMatchObject({ ok: false });
    expect(await checkUrl("https://public.example/", PUBLIC_ONLY, { lookup })).toEqual({ ok: true, address: "93.184.216.34", family: 4 });
    expect(lookup).toHaveBeenCalledWith("public.example", { all: true });
    // Not resolved is not refused: the DNS error's code says so (a dispatch retries it as a network error).
    expect(await checkUrl("http://nowhere.example/", PUBLIC_ONLY, { lookup })).toMatchObject({ ok: false, reason: expect.stringContaining("could not be resolved"), dnsCode: "ENOTFOUND" });
  });

  it("keeps a URL's answer for its own policy only, and resolves a host name again at every check", async () => {
    // An address URL is judged once per policy: asked again, each policy gives its own answer, in either order.
    for (let round = 0; round < 2; round++) {
      expect(await checkUrl("http://127.0.0.1:9/hook", PUBLIC_ONLY)).toMatchObject({ ok: false, reason: expect.stringContaining("loopback") });
      expect(await checkUrl("http://127.0.0.1:9/hook", LOOPBACK)).toEqual({ ok: true, address: "127.0.0.1", family: 4 });
      expect(await checkUrl(new URL("http://169.254.169.254/latest/"), LOOPBACK)).toMatchObject({ ok: false, reason: expect.stringContaining("always refused") });
    }
    // A name may answer another address at the next lookup (rebinding): it is never answered from what was judged before.
    let answer = "93.184.216.34";
    const lookup = vi.fn(async (): Promise<LookupAddress[]> => [{ address: answer, family: 4 }]);
    expect(await checkUrl("http://rebinding.example/", PUBLIC_ONLY, { lookup })).toEqual({ ok: true, address: "93.184.216.34", family: 4 });
    answer = "169.254.169.254";
    expect(await checkUrl("http://rebinding.example/", PUBLIC_ONLY, { lookup })).toMatchObject({ ok: false, reason: expect.stringContaining("always refused") });
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it("refuses what is not an http(s) URL", async () => {
    expect(await checkUrl("file:///etc/passwd", PUBLIC_ONLY)).toMatchObject({ ok: false, reason: expect.stringContaining("only http and https") });
    expect(await checkUrl("not a url", PUBLIC_ONLY)).toMatchObject({ ok: false });
  });
});

describe("policedFetch", () => {
  it("refuses 169.254.169.254 without opening any connection", async () => {
    const lookup = resolver({});
    const refusal = await policedFetch("http://169.254.169.254/latest/meta-data/", {}, { policy: LOOPBACK, lookup }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OutboundRefusal);
    expect((refusal as OutboundRefusal).reason).toContain("always refused");
    expect(lookup).not.toHaveBeenCalled();
    expect(connects).toEqual([]);
  });

  it("refuses a loopback stand-in when OUTBOUND_ALLOW does not list it, and reaches it when it lists 127.0.0.1/8", async () => {
    const base = await standIn((_request, response) => response.end("hello"));
    await expect(policedFetch(`${base}/x`, {}, { policy: PUBLIC_ONLY })).rejects.toBeInstanceOf(OutboundRefusal);
    expect(received).toEqual([]);
    expect(connects).toEqual([]);
    const response = await policedFetch(`${base}/x`, {}, { policy: LOOPBACK });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("hello");
    expect(connects).toEqual(["127.0.0.1"]);
  });

  it("refuses a redirect to 169.254.169.254 before following it", async () => {
    const base = await standIn((_request, response) => response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/iam/" }).end());
    const refusal = await policedFetch(`${base}/start`, {}, { policy: LOOPBACK }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OutboundRefusal);
    expect(refusal).toMatchObject({ url: "http://169.254.169.254/latest/meta-data/iam/", reason: expect.stringContaining("(redirect 1)") });
    expect(received).toEqual([{ method: "GET", url: "/start", host: expect.any(String) }]);
    expect(connects).toEqual(["127.0.0.1"]);
  });

  it("re-checks a redirect to a host name, resolved by the stubbed resolver", async () => {
    const base = await standIn((_request, response) => response.writeHead(307, { location: "http://rebind.example/" }).end());
    const lookup = resolver({ "rebind.example": ["169.254.169.254"] });
    await expect(policedFetch(base, {}, { policy: LOOPBACK, lookup })).rejects.toMatchObject({ reason: expect.stringContaining("rebind.example resolves to 169.254.169.254") });
    expect(connects).toEqual(["127.0.0.1"]);
  });

  it("connects to the address it checked: the host name is resolved once, and keeps its Host header", async () => {
    const base = await standIn((_request, response) => response.end("pinned"));
    const port = new URL(base).port;
    // A resolver that answers loopback to the check and metadata to any later lookup: only the first may count.
    let calls = 0;
    const lookup = vi.fn(async (): Promise<LookupAddress[]> => [{ address: calls++ === 0 ? "127.0.0.1" : "169.254.169.254", family: 4 }]);
    const response = await policedFetch(`http://svc.test:${port}/p`, {}, { policy: parseOutboundAllow("svc.test"), lookup });
    expect(await response.text()).toBe("pinned");
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(received).toEqual([{ method: "GET", url: "/p", host: `svc.test:${port}` }]);
  });

  it("follows allowed redirects (a 303 turns a POST into a GET), at most 5", async () => {
    const base = await standIn((request, response) => {
      const hop = Number(request.url?.slice(1)) || 0;
      if (request.url === "/post") response.writeHead(303, { location: "/done" }).end();
      else if (request.url === "/done") response.end(request.method);
      else response.writeHead(302, { location: `/${hop + 1}` }).end();
    });
    const posted = await policedFetch(`${base}/post`, { method: "POST", body: "x", headers: { "content-type": "text/plain" } }, { policy: LOOPBACK });
    expect(await posted.text()).toBe("GET");
    await expect(policedFetch(`${base}/0`, {}, { policy: LOOPBACK })).rejects.toMatchObject({ reason: "more than 5 redirects" });
    expect(received.filter((request) => /^\/\d+$/.test(request.url ?? ""))).toHaveLength(6);
    const itself = await policedFetch(`${base}/0`, {}, { policy: LOOPBACK, maxRedirects: 0 });
    expect(itself.status).toBe(302);
  });
});

describe("policedRequest (undici's request under the same policy)", () => {
  const post = (url: string, options: { policy: typeof LOOPBACK; lookup?: ReturnType<typeof resolver> }, timeoutMs = 5000) =>
    policedRequest(url, { method: "POST", body: "{}", headers: { "content-type": "application/json" }, timeoutMs }, options);

  it("refuses what the policy refuses without opening any connection, and answers the status line and body of what it allows", async () => {
    const base = await standIn((_request, response) => response.writeHead(404, "No Such Hook").end("gone"));
    await expect(post("http://169.254.169.254/latest/meta-data/", { policy: LOOPBACK })).rejects.toBeInstanceOf(OutboundRefusal);
    await expect(post(`${base}/x`, { policy: PUBLIC_ONLY })).rejects.toBeInstanceOf(OutboundRefusal);
    expect(connects).toEqual([]);
    expect(await post(`${base}/x?y=1`, { policy: LOOPBACK })).toEqual({ status: 404, statusText: "No Such Hook", text: "gone" });
    expect(received).toEqual([{ method: "POST", url: "/x?y=1", host: expect.any(String) }]);
  });

  it("connects to the address it checked, keeps the Host header, and re-checks a redirect before following it", async () => {
    const base = await standIn((request, response) => {
      if (request.url === "/away") response.writeHead(307, { location: "http://rebind.example/" }).end();
      else if (request.url === "/post") response.writeHead(303, { location: "/done" }).end();
      else response.end(request.method);
    });
    const port = new URL(base).port;
    let calls = 0;
    const lookup = vi.fn(async (hostname: string): Promise<LookupAddress[]> => [{ address: hostname === "svc.test" && calls++ === 0 ? "127.0.0.1" : "169.254.169.254", family: 4 }]);
    expect((await post(`http://svc.test:${port}/p`, { policy: parseOutboundAllow("svc.test"), lookup })).text).toBe("POST");
    expect(received).toEqual([{ method: "POST", url: "/p", host: `svc.test:${port}` }]);
    expect((await post(`${base}/post`, { policy: LOOPBACK })).text).toBe("GET");
    await expect(post(`${base}/away`, { policy: LOOPBACK, lookup })).rejects.toMatchObject({ reason: expect.stringContaining("rebind.example resolves to 169.254.169.254") });
    // Sockets opened: to svc.test (pinned to 127.0.0.1 by its lookup) and to 127.0.0.1; never to the rebinding answer.
    expect(new Set(connects)).toEqual(new Set(["svc.test", "127.0.0.1"]));
  });

  it("refuses a port the Fetch standard forbids, as fetch does, before connecting", async () => {
    const refusal = await post("http://127.0.0.1:25/hook", { policy: LOOPBACK }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BadPort);
    expect((refusal as BadPort).message).toBe("bad port");
    expect(connects).toEqual([]);
  });

  it("stops waiting for headers after timeoutMs", async () => {
    const base = await standIn(() => undefined);
    await expect(post(`${base}/slow`, { policy: LOOPBACK }, 200)).rejects.toMatchObject({ code: "UND_ERR_HEADERS_TIMEOUT" });
  });
});

describe("readBodyLimited", () => {
  it("reads a body up to the limit and fails as soon as it passes it", async () => {
    const base = await standIn((request, response) => {
      response.write("a".repeat(1000));
      response.end(request.url === "/big" ? "b".repeat(1000) : "");
    });
    const tooLarge = (limit: number) => new Error(`over ${limit}`);
    const small = await readBodyLimited(await policedFetch(`${base}/small`, {}, { policy: LOOPBACK }), 1500, tooLarge);
    expect(small.byteLength).toBe(1000);
    await expect(readBodyLimited(await policedFetch(`${base}/big`, {}, { policy: LOOPBACK }), 1500, tooLarge)).rejects.toThrow("over 1500");
  });
});
