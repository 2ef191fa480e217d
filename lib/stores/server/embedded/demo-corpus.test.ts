import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../../..");
const demoDir = path.join(root, "data", "demo");

const MEMORY_TYPES = new Set(["fact", "decision", "preference", "incident", "bug-fix", "person", "schedule", "note", "task"]);
const REQUIRED_FIELDS = ["id", "summary", "type", "tags", "importance", "created_at"] as const;
const ALLOWED_FIELDS = new Set<string>([...REQUIRED_FIELDS, "content"]);

interface DemoMemory {
  id: string;
  summary: string;
  content?: string;
  type: string;
  tags: string[];
  importance: number;
  created_at: string;
}

interface DemoQuery {
  id: string;
  query: string;
  kind: "on_topic" | "off_topic" | "near_miss";
  relevant: string[];
}

function readLines(): string[] {
  const text = fs.readFileSync(path.join(demoDir, "memories.jsonl"), "utf8");
  return text.split("\n").filter((line) => line.trim() !== "");
}

const lines = readLines();
const parseErrors: string[] = [];
const memories: DemoMemory[] = [];
lines.forEach((line, i) => {
  try {
    memories.push(JSON.parse(line) as DemoMemory);
  } catch (error) {
    parseErrors.push(`line ${i + 1}: ${(error as Error).message}`);
  }
});
const queries = JSON.parse(fs.readFileSync(path.join(demoDir, "queries.json"), "utf8")) as DemoQuery[];

function wordCount(text: string): number {
  return text.trim().split(/\s+/).length;
}

describe("demo corpus: memories.jsonl", () => {
  it("has at least 300 memories, one JSON object per line", () => {
    expect(parseErrors).toEqual([]);
    expect(memories.length).toBe(lines.length);
    expect(memories.length).toBeGreaterThanOrEqual(300);
    for (const memory of memories) {
      expect(memory !== null && typeof memory === "object" && !Array.isArray(memory)).toBe(true);
    }
  });

  it("has unique, sequential ids mem-0001 … in file order", () => {
    const ids = memories.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    ids.forEach((id, i) => expect(id).toBe(`mem-${String(i + 1).padStart(4, "0")}`));
  });

  it("has the required fields with the right types and no unknown fields", () => {
    for (const memory of memories) {
      const where = `memory ${memory.id}`;
      for (const field of REQUIRED_FIELDS) expect(memory, `${where} lacks ${field}`).toHaveProperty(field);
      for (const key of Object.keys(memory)) expect(ALLOWED_FIELDS.has(key), `${where} has unknown field ${key}`).toBe(true);
      expect(typeof memory.id, where).toBe("string");
      expect(typeof memory.summary, where).toBe("string");
      expect(typeof memory.type, where).toBe("string");
      expect(Array.isArray(memory.tags), where).toBe(true);
      expect(typeof memory.importance, where).toBe("number");
      expect(typeof memory.created_at, where).toBe("string");
      if (memory.content !== undefined) {
        expect(typeof memory.content, where).toBe("string");
        expect(memory.content.trim().length, where).toBeGreaterThan(0);
      }
    }
  });

  it("keeps summaries between 10 and 500 characters and at most 70 words (the embedder truncates beyond)", () => {
    for (const memory of memories) {
      const where = `memory ${memory.id}`;
      expect(memory.summary.length, where).toBeGreaterThanOrEqual(10);
      expect(memory.summary.length, where).toBeLessThanOrEqual(500);
      expect(wordCount(memory.summary), where).toBeLessThanOrEqual(70);
      expect(memory.summary).toBe(memory.summary.trim());
    }
  });

  it("uses only the allowed memory types", () => {
    for (const memory of memories) expect(MEMORY_TYPES.has(memory.type), `memory ${memory.id} type ${memory.type}`).toBe(true);
  });

  it("has non-empty, lowercase string tags", () => {
    for (const memory of memories) {
      const where = `memory ${memory.id}`;
      expect(memory.tags.length, where).toBeGreaterThan(0);
      for (const tag of memory.tags) {
        expect(typeof tag, where).toBe("string");
        expect(tag.trim().length, where).toBeGreaterThan(0);
        expect(tag, where).toBe(tag.toLowerCase());
      }
    }
  });

  it("has importance in [0, 1]", () => {
    for (const memory of memories) {
      expect(Number.isFinite(memory.importance), `memory ${memory.id}`).toBe(true);
      expect(memory.importance).toBeGreaterThanOrEqual(0);
      expect(memory.importance).toBeLessThanOrEqual(1);
    }
  });

  it("has created_at timestamps that parse", () => {
    for (const memory of memories) {
      const ms = Date.parse(memory.created_at);
      expect(Number.isNaN(ms), `memory ${memory.id} created_at ${memory.created_at}`).toBe(false);
      expect(memory.created_at.endsWith("Z"), `memory ${memory.id}`).toBe(true);
    }
  });
});

describe("demo corpus: queries.json", () => {
  const memoryIds = new Set(memories.map((m) => m.id));
  const onTopic = queries.filter((q) => q.kind === "on_topic");
  // Near misses (same vocabulary, the asked fact not stored) are off-topic with a kind of their own.
  const offTopic = queries.filter((q) => q.kind === "off_topic" || q.kind === "near_miss");

  it("is an array of at least 60 queries, at least 40 on-topic and 15 off-topic", () => {
    expect(Array.isArray(queries)).toBe(true);
    expect(queries.length).toBeGreaterThanOrEqual(60);
    expect(onTopic.length).toBeGreaterThanOrEqual(40);
    expect(offTopic.length).toBeGreaterThanOrEqual(15);
    expect(onTopic.length + offTopic.length).toBe(queries.length);
  });

  it("has well-formed entries", () => {
    for (const q of queries) {
      expect(typeof q.id).toBe("string");
      expect(typeof q.query, q.id).toBe("string");
      expect(q.query.trim().length, q.id).toBeGreaterThan(0);
      expect(Array.isArray(q.relevant), q.id).toBe(true);
    }
  });

  it("has unique query ids and no duplicated query text", () => {
    const ids = queries.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    const texts = queries.map((q) => q.query.trim().toLowerCase());
    expect(new Set(texts).size).toBe(texts.length);
  });

  it("only references memory ids that exist, without repeats", () => {
    for (const q of queries) {
      expect(new Set(q.relevant).size, q.id).toBe(q.relevant.length);
      for (const id of q.relevant) expect(memoryIds.has(id), `${q.id} references unknown ${id}`).toBe(true);
    }
  });

  it("labels every on-topic query with at least one memory and every off-topic query with none", () => {
    for (const q of onTopic) expect(q.relevant.length, q.id).toBeGreaterThanOrEqual(1);
    for (const q of offTopic) expect(q.relevant, q.id).toEqual([]);
  });
});
