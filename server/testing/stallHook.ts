/**
 * Preloaded into a server process by the fault suite (`startServerProcess`'s `preload`), never by the product: on
 * SIGUSR2 the process's event loop is held by a busy loop for STITCH_STALL_MS (3,000 ms), as a long synchronous
 * computation, a long garbage collection or a starved CPU would hold it. Nothing of the process runs meanwhile: no
 * heartbeat, no answer, no send.
 */
const stallMs = Number(process.env.STITCH_STALL_MS ?? 3000);

process.on("SIGUSR2", () => {
  const started = Date.now();
  while (Date.now() - started < stallMs) {
    // The stall itself: the loop gives nothing back to the event loop until the time is up.
  }
  console.log(`stall hook: the event loop was held ${Date.now() - started} ms`);
});
