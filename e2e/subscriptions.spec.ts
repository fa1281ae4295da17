/**
 * Webhook subscriptions in Chromium against the real server: an operator adds a subscription for run.completed pointing
 * at a receiver this spec starts on 127.0.0.1, and copies its secret, shown once; a plain flow's run completes; the
 * receiver gets the event, signed so that Standard Webhooks verifies it with that secret, and the page shows the
 * delivery (Delivered, HTTP 200, its response time and attempts). At a phone's width the page still fits, and the
 * subscription is deleted from the keyboard, after the page asked.
 */
import { expect, test } from "@playwright/test";
import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { snapshot } from "./helpers";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/stitch-events`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("an operator subscribes a receiver to run.completed; a run completes and the page shows the signed delivery", async ({ page }, testInfo) => {
  const receiver = await startReceiver();
  try {
    await page.goto("/app/subscriptions");
    await expect(page.getByRole("heading", { name: "Subscriptions", level: 1 })).toBeVisible();

    // The form, from the keyboard: the URL, then the event's checkbox with Space, then Enter in the URL sends it.
    const form = page.getByRole("region", { name: "Add a subscription" });
    await form.getByLabel("URL").fill(receiver.url);
    const completed = form.getByRole("checkbox", { name: /run\.completed/ });
    await completed.focus();
    await page.keyboard.press("Space");
    await expect(completed).toBeChecked();
    await form.getByLabel("URL").press("Enter");
    const secretBox = page.getByRole("textbox", { name: `Signing secret for ${receiver.url}` });
    await expect(secretBox).toHaveValue(/^whsec_/);
    const secret = await secretBox.inputValue();
    await snapshot(page, testInfo, "01-secret-shown-once");
    await page.getByRole("button", { name: "Done" }).click();
    await expect(secretBox).toHaveCount(0);

    const card = page.getByRole("listitem", { name: receiver.url });
    await expect(card.getByRole("list", { name: "Events" })).toHaveText("run.completed");
    await card.getByRole("button", { name: `Show deliveries to ${receiver.url}` }).click();
    await expect(card).toContainText("Nothing has been sent to it yet");

    // A plain flow's run completes: its one UX node is completed.
    const flowName = `subscribed-${Date.now()}`;
    const flow = await page.request.post("/api/stitch/flows", { data: { name: flowName, graph: { nodes: [{ id: "ask", type: "UX", position: { x: 0, y: 0 }, data: {} }], edges: [] } } });
    expect(flow.status()).toBe(201);
    const run = await page.request.post(`/api/stitch/flows/${(await flow.json()).id}/runs`, { data: { input: { topic: "tides" } } });
    expect(run.status()).toBe(201);
    const runId = (await run.json()).id as string;
    expect((await page.request.post(`/api/stitch/complete/${runId}/ask`, { data: { answer: 42 } })).ok()).toBe(true);

    // The receiver gets it, signed with the secret the page showed.
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const [delivery] = receiver.received;
    const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(delivery!.headers[name])]));
    const payload = new Webhook(secret).verify(delivery!.body, headers) as { type: string; title: string; run: { run_id: string }; links: { app: string } };
    expect(payload).toMatchObject({ type: "run.completed", run: { run_id: runId }, title: `Flow "${flowName}" run ${runId.slice(0, 8)}` });
    expect(payload.links.app).toMatch(new RegExp(`/app/engine/runs/${runId}$`));

    // The page shows the delivery (it reads the deliveries again while they are shown).
    const row = card.getByRole("row", { name: `run.completed: ${payload.title}` });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText("Delivered");
    const cells = row.getByRole("cell");
    await expect(cells.nth(2)).toHaveText("200");
    await expect(cells.nth(3)).toHaveText(/^\d+ ms$|^\d+\.\d s$/);
    await expect(cells.nth(4)).toHaveText("1");
    await snapshot(page, testInfo, "02-delivery-shown");

    // At a phone's width the page fits, and the subscription is deleted from the keyboard once the page asked.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const remove = card.getByRole("button", { name: `Delete the subscription to ${receiver.url}` });
    await remove.focus();
    await page.keyboard.press("Enter");
    await expect(card).toContainText("nothing more is sent to it");
    const confirm = card.getByRole("button", { name: `Delete the subscription to ${receiver.url} for good` });
    await confirm.focus();
    await snapshot(page, testInfo, "03-delete-asks-first-390px");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("listitem", { name: receiver.url })).toHaveCount(0);
    const listed = await page.request.get("/api/subscriptions");
    expect(((await listed.json()) as { url: string }[]).map((s) => s.url)).not.toContain(receiver.url);
  } finally {
    await page.setViewportSize({ width: 1280, height: 860 });
    await receiver.close();
  }
});

test("My settings tells the bootstrap token, which is no account, that there is no one to email", async ({ page }) => {
  await page.goto("/app/settings");
  await expect(page.getByRole("heading", { name: "My settings", level: 1 })).toBeVisible();
  await expect(page.getByText("Settings belong to accounts")).toBeVisible();
  await expect(page.getByRole("checkbox")).toHaveCount(0);
});
