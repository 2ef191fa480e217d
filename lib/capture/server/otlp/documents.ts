/**
 * A retriever span's documents as real OpenInference instrumentations write them
 * (lib/capture/README.md "Capture from production"). Pure.
 *
 * The convention is `retrieval.documents.{i}.document.{id,content,score,metadata}`, but
 * instrumentations leave parts out: LangChain JS's (`@arizeai/openinference-instrumentation-langchain`)
 * writes only `content` and `metadata` (JSON text) and puts the whole `{"documents": [Document…]}`
 * in `output.value`, where a LangChain `Document.id` appears as `id`. So each field is read from
 * the first place that has it:
 *
 * - id: `document.id` → the document's metadata (`ID_KEYS`, in that order) → the same document in
 *   `output.value` (its own `id`/`ID_KEYS`, then its metadata) → an id made from the content
 *   (`content:` + the first 16 hex digits of its SHA-256: the same text gets the same id).
 * - score: `document.score` → metadata `SCORE_KEYS` → `output.value`; none is a recall without
 *   scores (never a rejected span).
 * - content: `document.content` → `output.value` (`pageContent`, `page_content`, `content`,
 *   `text`, `summary`).
 *
 * `output.value`'s list is `documents`, `results` (a memory service's RecallResponse) or the
 * value itself when it is an array. It is used only when it lines up with the attributes (same
 * count, same content where both have one); with no document attributes at all it is the list.
 * Everything taken from elsewhere, made up or left unread is reported as `notes` for the
 * recall's notices.
 */
import { createHash } from "node:crypto";
import type { AttributeValue } from "../../otlp/decode";

/** Metadata keys that hold a document's id, in the order they are tried. */
export const ID_KEYS = ["id", "memory_id", "doc_id", "document_id", "_id"] as const;
/** Metadata keys that hold a document's score (LangChain's rerank compressors write `relevance_score`). */
export const SCORE_KEYS = ["score", "relevance_score"] as const;
const CONTENT_KEYS = ["pageContent", "page_content", "content", "text", "summary"] as const;

/** Longer ids are not ids (the log keeps up to 200 characters). */
export const MAX_ID_LENGTH = 200;
/** Document attributes beyond this index are ignored (a recall asks for at most 100). */
const MAX_INDEX = 100_000;

export type IdSource = "attribute" | `metadata.${(typeof ID_KEYS)[number]}` | "output.value" | "content_hash";

export interface SpanDocument {
  id: string;
  idSource: IdSource;
  content: string;
  score: number | null;
}

export interface DocumentNotes {
  /** Documents whose score no place carried. */
  unscored: number;
  /** What was present but could not be read, one line each (e.g. "retrieval.documents.2.document.score is not a number"). */
  unread: string[];
}

export interface ReadDocuments {
  documents: SpanDocument[];
  notes: DocumentNotes;
}

const DOCUMENT_KEY = /^retrieval\.documents\.(\d+)\.document\.(id|content|score|metadata)$/;

type Field = "id" | "content" | "score" | "metadata";
type RawDocument = Partial<Record<Field, AttributeValue>>;

/** The documents of a retriever span, in index order, with what was not found where expected. */
export function readDocuments(attributes: Record<string, AttributeValue>): ReadDocuments {
  const unread: string[] = [];
  const fromAttributes = attributeDocuments(attributes);
  const output = outputDocuments(attributes["output.value"], unread);

  let raw: { attribute: RawDocument; output: Record<string, unknown> | null; where: string }[];
  if (fromAttributes.length === 0) {
    raw = (output ?? []).map((o, i) => ({ attribute: {}, output: o, where: `output.value document ${i}` }));
  } else {
    const aligned = output !== null && linesUp(fromAttributes, output);
    if (output !== null && !aligned) {
      unread.push("output.value's documents do not line up with retrieval.documents (count or content differ): not used");
    }
    raw = fromAttributes.map(({ index, fields }, i) => ({
      attribute: fields,
      output: aligned ? output![i]! : null,
      where: `retrieval.documents.${index}`,
    }));
  }

  let unscored = 0;
  const documents = raw.map(({ attribute, output: o, where }) => {
    const metadata = metadataOf(attribute.metadata, `${where}.document.metadata`, unread);
    const outputMetadata = o
      ? metadataOf(o.metadata as AttributeValue | undefined, `${where} metadata in output.value`, unread)
      : null;
    const content = typeof attribute.content === "string" ? attribute.content : (firstString(o, CONTENT_KEYS) ?? "");
    const id = idOf(attribute, metadata, o, outputMetadata, content, where, unread);
    const score = scoreOf(attribute, metadata, o, outputMetadata, where, unread);
    if (score === null) unscored += 1;
    return { ...id, content, score };
  });
  return { documents, notes: { unscored, unread } };
}

function attributeDocuments(attributes: Record<string, AttributeValue>): { index: number; fields: RawDocument }[] {
  const byIndex = new Map<number, RawDocument>();
  for (const [key, value] of Object.entries(attributes)) {
    const match = DOCUMENT_KEY.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    if (!Number.isSafeInteger(index) || index > MAX_INDEX) continue;
    const entry = byIndex.get(index) ?? {};
    entry[match[2] as Field] = value;
    byIndex.set(index, entry);
  }
  return [...byIndex.keys()].sort((a, b) => a - b).map((index) => ({ index, fields: byIndex.get(index)! }));
}

/** The document list inside `output.value`, or null when it holds none. */
function outputDocuments(value: AttributeValue | undefined, unread: string[]): Record<string, unknown>[] | null {
  if (typeof value !== "string") return null;
  const text = value.trimStart();
  if (!text.startsWith("{") && !text.startsWith("[")) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A text output that happens to start with a bracket, or JSON too deep to parse: nothing to read.
    unread.push("output.value is not JSON");
    return null;
  }
  const list = Array.isArray(parsed)
    ? parsed
    : isRecord(parsed)
      ? Array.isArray(parsed.documents)
        ? parsed.documents
        : Array.isArray(parsed.results)
          ? parsed.results
          : null
      : null;
  if (list === null) return null;
  // LangChain's serialized form ({lc, type: "constructor", kwargs}) carries the fields in kwargs.
  return list.map((item) => (isRecord(item) ? (isRecord(item.kwargs) && "lc" in item ? item.kwargs : item) : {}));
}

/** The output's list belongs to the attributes' documents: same count, same content where both have one. */
function linesUp(fromAttributes: { fields: RawDocument }[], output: Record<string, unknown>[]): boolean {
  if (fromAttributes.length !== output.length) return false;
  return fromAttributes.every(({ fields }, i) => {
    const a = fields.content;
    const b = firstString(output[i]!, CONTENT_KEYS);
    return typeof a !== "string" || b === null || a === b;
  });
}

function metadataOf(value: AttributeValue | undefined, where: string, unread: string[]): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (isRecord(value)) return value;
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isRecord(parsed)) return parsed;
    } catch {
      /* reported below */
    }
  }
  unread.push(`${where} is not a JSON object`);
  return null;
}

function idOf(
  attribute: RawDocument,
  metadata: Record<string, unknown> | null,
  output: Record<string, unknown> | null,
  outputMetadata: Record<string, unknown> | null,
  content: string,
  where: string,
  unread: string[],
): { id: string; idSource: IdSource } {
  const stated = idText(attribute.id);
  if (stated !== null) return { id: stated, idSource: "attribute" };
  if (attribute.id !== undefined && attribute.id !== null && attribute.id !== "") {
    unread.push(`${where}.document.id is not an id (text of 1–${MAX_ID_LENGTH} characters)`);
  }
  for (const key of ID_KEYS) {
    const id = idText(metadata?.[key]);
    if (id !== null) return { id, idSource: `metadata.${key}` };
  }
  if (output) {
    for (const key of ["memory_id", ...ID_KEYS] as const) {
      const id = idText(output[key]);
      if (id !== null) return { id, idSource: "output.value" };
    }
    for (const key of ID_KEYS) {
      const id = idText(outputMetadata?.[key]);
      if (id !== null) return { id, idSource: "output.value" };
    }
  }
  return { id: contentHashId(content), idSource: "content_hash" };
}

/** The id made for a document that carries none: the same text always gets the same id. */
export function contentHashId(content: string): string {
  return `content:${createHash("sha256").update(content, "utf8").digest("hex").slice(0, 16)}`;
}

function idText(value: unknown): string | null {
  const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== "string") return null;
  const trimmed = text.trim();
  return trimmed === "" || trimmed.length > MAX_ID_LENGTH ? null : trimmed;
}

function scoreOf(
  attribute: RawDocument,
  metadata: Record<string, unknown> | null,
  output: Record<string, unknown> | null,
  outputMetadata: Record<string, unknown> | null,
  where: string,
  unread: string[],
): number | null {
  const stated = attribute.score;
  if (typeof stated === "number" && Number.isFinite(stated)) return stated;
  if (stated !== undefined && stated !== null) unread.push(`${where}.document.score is not a finite number`);
  for (const source of [metadata, output, outputMetadata]) {
    for (const key of SCORE_KEYS) {
      const value = source?.[key];
      if (typeof value === "number" && Number.isFinite(value)) return value;
    }
  }
  return null;
}

function firstString(source: Record<string, unknown> | null, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = source?.[key];
    if (typeof value === "string") return value;
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
