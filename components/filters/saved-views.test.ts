import { describe, expect, it } from "vitest";
import type { SavedView } from "@/lib/saved-views/schema";
import { activeView, sameParams } from "./saved-views";

const view = (id: string, params: string): SavedView => ({
  id,
  page: "history",
  name: id,
  params,
  href: `/recalls?${params}`,
  created_at: "",
  updated_at: "",
});

describe("saved views: which one is open", () => {
  it("compares query strings as sets of pairs", () => {
    expect(sameParams("store=a&level=high", "level=high&store=a")).toBe(true);
    expect(sameParams("store=a", "store=a&level=high")).toBe(false);
    expect(sameParams("q=a+b", "q=a%20b")).toBe(true);
    expect(sameParams("", "")).toBe(true);
  });

  it("finds the view whose filters are in effect", () => {
    const views = [view("one", "store=a"), view("two", "level=low&range=24h")];
    expect(activeView(views, "range=24h&level=low")?.id).toBe("two");
    expect(activeView(views, "store=b")).toBeNull();
  });
});
