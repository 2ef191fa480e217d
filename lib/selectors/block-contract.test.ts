/**
 * The selector block contract (docs/reference-rules.md "The selector block") as the strategies produce it: every block comes from
 * `selectorApplied` / `selectorNotApplied`, so the cap, the order and the omitted keys hold.
 */
import { describe, expect, it } from "vitest";
import {
  MAX_DROPPED_IDS,
  SelectorBlockSchema,
  selectorApplied,
  selectorNotApplied,
  serializeSelector,
} from "@/lib/recall/selector-block";
import { runSelector } from "@/lib/selectors";
import { createScoreGapSelector } from "@/lib/selectors/score-gap";
import type { SelectorPageItem, SelectorRun } from "@/lib/selectors/types";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `mem-${String(i + 1).padStart(2, "0")}`);

/** Holds a run to the contract: exact keys, counts over the page, ≤ 20 ids in page order. */
function expectContract(run: SelectorRun, pageIds: string[]) {
  const wire = serializeSelector(run.block);
  expect(wire).toEqual(run.block);
  expect(SelectorBlockSchema.safeParse(JSON.parse(JSON.stringify(run.block))).success).toBe(true);
  if (!run.block.applied) {
    expect(Object.keys(run.block).sort()).toEqual(["applied", "reason"]);
    expect(run.keptIds).toEqual(pageIds);
    return;
  }
  expect(Object.keys(run.block).sort()).toEqual(["applied", "dropped", "dropped_memory_ids", "kept", "model"]);
  const kept = new Set(run.keptIds);
  const dropped = pageIds.filter((id) => !kept.has(id));
  expect(run.keptIds).toEqual(pageIds.filter((id) => kept.has(id)));
  expect(run.block.kept).toBe(run.keptIds.length);
  expect(run.block.dropped).toBe(dropped.length);
  expect(run.block.kept + run.block.dropped).toBe(pageIds.length);
  expect(run.block.dropped_memory_ids).toEqual(dropped.slice(0, MAX_DROPPED_IDS));
}

describe("the block contract through the real constructors", () => {
  it("applied: counts over the page, dropped ids in page order, exactly five keys", () => {
    const block = selectorApplied({ model: "score-gap", page: ["a", "b", "c", "d"], keptIds: ["d", "b"] });
    expect(serializeSelector(block)).toEqual({
      applied: true,
      model: "score-gap",
      kept: 2,
      dropped: 2,
      dropped_memory_ids: ["a", "c"],
    });
  });

  it("caps the id list at 20 while dropped counts them all", () => {
    const page = ids(45);
    const block = selectorApplied({ model: "m", page, keptIds: [page[44]!, page[0]!] });
    expect(block.dropped).toBe(43);
    expect(block.dropped_memory_ids).toEqual(page.slice(1, 21));
    expect(serializeSelector(block)).toMatchObject({ dropped: 43, dropped_memory_ids: page.slice(1, 21) });
  });

  it("not applied: only applied and reason; unset keys are omitted, not null", () => {
    const wire = serializeSelector(selectorNotApplied("timeout"));
    expect(wire).toEqual({ applied: false, reason: "timeout" });
    expect(JSON.stringify(wire)).toBe('{"applied":false,"reason":"timeout"}');
    expect(serializeSelector({ applied: false, reason: "x", model: undefined } as never)).toEqual({
      applied: false,
      reason: "x",
    });
  });

  it("the constructors refuse what would break the contract", () => {
    expect(() => selectorApplied({ model: "m", page: ["a"], keptIds: ["z"] })).toThrow();
    expect(() => selectorApplied({ model: "m", page: ["a", "a"], keptIds: [] })).toThrow();
    expect(() => selectorNotApplied("" as never)).toThrow();
    expect(() => selectorNotApplied("no_clear_gap" as never)).toThrow();
  });
});

describe("the block contract as the strategies build it", () => {
  it("score gap, over many page shapes, including > 20 dropped", async () => {
    const selector = createScoreGapSelector();
    const shapes: (number | null)[][] = [
      [0.9, 0.88, 0.4, 0.39],
      [0.9, ...Array.from({ length: 34 }, (_, i) => 0.3 - i / 1000)],
      [null, 0.9, null, 0.5, 0.49, null],
      [0.5, 0.5, 0.5],
      [0.9, 0.1],
      [],
    ];
    for (const cosines of shapes) {
      const pageIds = ids(cosines.length);
      const page: SelectorPageItem[] = cosines.map((c, i) => ({ memory_id: pageIds[i]!, summary: "s", score: 1, raw_cosine: c }));
      expectContract(await selector.select({ query: "q", page }), pageIds);
    }
  });

  it("the many-dropped score-gap page lists the first 20 dropped in page order", async () => {
    const pageIds = ids(35);
    const page: SelectorPageItem[] = pageIds.map((id, i) => ({
      memory_id: id,
      summary: "s",
      score: 1,
      raw_cosine: i === 7 ? 0.95 : 0.3 - i / 1000,
    }));
    const run = await createScoreGapSelector().select({ query: "q", page });
    expect(run.block).toMatchObject({ applied: true, kept: 1, dropped: 34 });
    if (run.block.applied) expect(run.block.dropped_memory_ids).toEqual(pageIds.filter((id) => id !== "mem-08").slice(0, 20));
    expect(run.keptIds).toEqual(["mem-08"]);
  });

  it("off and unconfigured LLM runs", async () => {
    const pageIds = ids(3);
    const page = pageIds.map((id) => ({ memory_id: id, summary: "s", score: 1 }));
    expectContract(await runSelector("off", { query: "q", page }, { env: {} }), pageIds);
    expectContract(await runSelector("llm", { query: "q", page }, { env: {} }), pageIds);
  });
});
