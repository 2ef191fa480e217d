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

  it("no set: nothing to pick", () => {
    expect(defaultSetId([], [run("x")])).toBe("");
  });
});
