import { describe, expect, it } from "vitest";
import { defaultSetId } from "./default-set";

const set = (id: string, origin = "upload") => ({ id, origin });
const run = (id: string) => ({ dataset: { id } });

describe("defaultSetId", () => {
  it("takes the set of the latest run, not the newest set", () => {
    expect(defaultSetId([set("new"), set("daily"), set("demo", "demo")], [run("daily"), run("demo")])).toBe("daily");
  });

  it("skips runs whose set is gone", () => {
    expect(defaultSetId([set("new"), set("daily")], [run("deleted"), run("daily")])).toBe("daily");
  });

  it("without runs: the only set, else the demo set, else the newest", () => {
    expect(defaultSetId([set("only")], [])).toBe("only");
    expect(defaultSetId([set("new"), set("demo", "demo")], [])).toBe("demo");
    expect(defaultSetId([set("new"), set("old")], [])).toBe("new");
  });

  it("picks only a set of the chosen store: its demo set, else its newest", () => {
    const inStore = (id: string, store: string, origin = "upload") => ({ id, origin, store });
    const sets = [inStore("a-new", "a"), inStore("demo-set", "demo", "demo"), inStore("a-old", "a")];
    expect(defaultSetId(sets, [], "a")).toBe("a-new");
    expect(defaultSetId(sets, [], "demo")).toBe("demo-set");
    // The latest run's set belongs to another store: not offered for this one.
    expect(defaultSetId(sets, [run("demo-set")], "a")).toBe("a-new");
    expect(defaultSetId(sets, [run("a-old")], "a")).toBe("a-old");
    expect(defaultSetId(sets, [run("demo-set")], "b")).toBe("");
  });

  it("no set: nothing to pick", () => {
    expect(defaultSetId([], [run("x")])).toBe("");
  });
});
