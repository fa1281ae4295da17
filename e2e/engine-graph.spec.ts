/**
 * Any flow's engine run can be followed as a graph and its UX nodes completed: a Splitter fans three
 * items out to a real HTTP worker, a Collector gathers them, and a person completes the UX node.
 */
import { expect, test } from "@playwright/test";
import { echoWorker, startWorkerServer, type WorkerServer } from "../server/testing/workerServer";
import { snapshot } from "./helpers";

let worker: WorkerServer;
test.beforeAll(async () => {
  worker = await startWorkerServer(echoWorker((payload) => ({ shipped: payload.input })));
});
test.afterAll(async () => worker.close());

test("an engine run's graph shows splitter paths live and lets a person complete its UX node", async ({ page, request }, testInfo) => {
  const flowResponse = await request.post("/api/stitch/flows", {
    data: {
      name: "Ship orders",
      graph: {
        nodes: [
          { id: "split", type: "Splitter", position: { x: 0, y: 0 }, data: { label: "Split orders", arrayPath: "orders" } },
          { id: "ship", type: "Worker", position: { x: 260, y: 0 }, data: { label: "Ship order", webhookUrl: `${worker.url}/ship` } },
          { id: "collect", type: "Collector", position: { x: 520, y: 0 }, data: { label: "Collect shipments" } },
          { id: "signoff", type: "UX", position: { x: 780, y: 0 }, data: { label: "Sign-off" } },
        ],
        edges: [
          { id: "e1", source: "split", target: "ship" },
          { id: "e2", source: "ship", target: "collect" },
          { id: "e3", source: "collect", target: "signoff" },
        ],
      },
    },
  });
  expect(flowResponse.ok(), await flowResponse.text()).toBe(true);
  const flow = (await flowResponse.json()) as { id: string };
  const runResponse = await request.post(`/api/stitch/flows/${flow.id}/runs`, { data: { input: { orders: ["A-1", "A-2", "A-3"] } } });
  expect(runResponse.ok(), await runResponse.text()).toBe(true);
  const run = (await runResponse.json()) as { id: string };

  await page.goto("/app/engine");
  await expect(page.getByRole("link", { name: "Ship orders" }).first()).toBeVisible();
  await snapshot(page, testInfo, "00-engine-runs");
  await page.getByRole("link", { name: "Ship orders" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/app/engine/runs/${run.id}$`));

  // One row per splitter path under the worker node, each completed by the real worker.
  const nodes = page.getByRole("region", { name: "Nodes" });
  for (const key of ["ship_0", "ship_1", "ship_2"]) {
    await expect(nodes.getByRole("row", { name: new RegExp(key) })).toContainText("Completed");
  }
  await expect(page.locator(".react-flow__node")).toHaveCount(4);
  await expect(nodes.getByRole("row", { name: /Sign-off/ })).toContainText("Needs input");
  await snapshot(page, testInfo, "01-engine-run-waiting");

  await nodes.getByRole("button", { name: "Details of Sign-off" }).click();
  await page.getByRole("textbox", { name: "Output" }).fill('{"signed_by": "dana"}');
  await page.getByRole("button", { name: "Complete node" }).click();
  await expect(nodes.getByRole("row", { name: /Sign-off/ })).toContainText("Completed");
  await expect(page.locator(".run-header")).toContainText("Completed");
  await snapshot(page, testInfo, "02-engine-run-completed");

  const finished = (await (await request.get(`/api/stitch/runs/${run.id}`)).json()) as { status: string; node_states: Record<string, { output: unknown }> };
  expect(finished.status).toBe("completed");
  expect(finished.node_states.signoff!.output).toEqual({ signed_by: "dana" });
});
