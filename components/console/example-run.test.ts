import { describe, expect, it } from "vitest";
import { exampleChoice } from "./example-run";

describe("exampleChoice", () => {
  it("fills the box with the example and runs it when the form can run", () => {
    const query = "How many moons does Jupiter have?";
    expect(exampleChoice(query, null)).toEqual({ query, run: true });
  });

  it("only fills the box when Run is blocked, so the reason stays in view", () => {
    expect(exampleChoice("what time is the daily standup", "The store “gone” is not configured here.")).toEqual({
      query: "what time is the daily standup",
      run: false,
    });
  });
});
