import { describe, expect, it } from "vitest";
import { giveWay } from "./pacing";

/** Whether the promise has settled after a few turns of the event loop. */
async function settledSoon(promise: Promise<unknown>, ms = 30): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

describe("giveWay (the audit's pacing)", () => {
  it("goes on after one turn when no foreground recall is in flight", async () => {
    expect(await settledSoon(giveWay(undefined, () => 0))).toBe(true);
  });

  it("waits while a foreground recall is in flight and goes on once it is over", async () => {
    let inFlight = 1;
    const turn = giveWay(undefined, () => inFlight);
    expect(await settledSoon(turn)).toBe(false);
    inFlight = 0;
    expect(await settledSoon(turn)).toBe(true);
  });

  it("does not wait for ever behind a console that never rests", async () => {
    await expect(giveWay(undefined, () => 1)).resolves.toBeUndefined();
  });

  it("stops waiting with the signal's reason once the audit is cancelled", async () => {
    const controller = new AbortController();
    const turn = giveWay(controller.signal, () => 1);
    controller.abort(new Error("cancelled"));
    await expect(turn).rejects.toThrow("cancelled");
  });
});
