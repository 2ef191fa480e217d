/**
 * An OTLP/HTTP trace export, protobuf or JSON, read into one plain shape (lib/capture/README.md
 * "Capture from production"). Pure. A body that is not an export at all is a `MalformedExport`
 * (the endpoint answers 400); what is wrong inside one span is that span's business
 * (openinference.ts), so one bad span never sinks the rest.
 *
 * OTLP/JSON (the OTLP specification, "JSON Protobuf Encoding"): field names in lowerCamelCase,
 * trace and span ids as hex, 64-bit integers as numbers or decimal strings, enums as integers.
 * snake_case names are read too, and ids sent as base64 (a common exporter mistake) are accepted.
 */
import protobuf from "protobufjs";
import { ExportTraceServiceRequest } from "./proto";

export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

export interface DecodedSpan {
  /** Lowercase hex, or null when absent or not 16 bytes. */
  traceId: string | null;
  /** Lowercase hex, or null when absent or not 8 bytes. */
  spanId: string | null;
  name: string;
  /** Nanoseconds since the epoch, as a decimal string ("0" when unset). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, AttributeValue>;
  /** The resource's attributes (service.name …). */
  resource: Record<string, AttributeValue>;
}

export class MalformedExport extends Error {
  override readonly name = "MalformedExport";
}

// ---------------------------------------------------------------------------------------------
// Protobuf

export function decodeProtobufExport(bytes: Uint8Array): DecodedSpan[] {
  let object: Record<string, unknown>;
  try {
    const message: protobuf.Message = ExportTraceServiceRequest.decode(bytes);
    // Both steps recurse into nested AnyValues: values nested thousands deep overflow the stack
    // (a RangeError), which is a body this endpoint cannot read, not its own failure.
    object = ExportTraceServiceRequest.toObject(message, { longs: String, bytes: Array, defaults: false, arrays: true });
  } catch (error) {
    throw new MalformedExport(`the body is not a protobuf ExportTraceServiceRequest (${describe(error)})`);
  }
  return spansOf(object, "protobuf");
}

// ---------------------------------------------------------------------------------------------
// JSON

export function decodeJsonExport(text: string): DecodedSpan[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON.parse's own words: they quote the body.
    throw new MalformedExport("the body is not JSON");
  }
  if (!isRecord(parsed)) throw new MalformedExport("the body is not a JSON object (an ExportTraceServiceRequest)");
  return spansOf(parsed, "json");
}

// ---------------------------------------------------------------------------------------------
// Both

type Encoding = "protobuf" | "json";

function field(object: Record<string, unknown>, camel: string): unknown {
  if (camel in object) return object[camel];
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return object[snake];
}

function list(object: Record<string, unknown>, camel: string, where: string): Record<string, unknown>[] {
  const value = field(object, camel);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new MalformedExport(`${where}.${camel} is not an array`);
  return value.map((item, i) => {
    if (!isRecord(item)) throw new MalformedExport(`${where}.${camel}[${i}] is not an object`);
    return item;
  });
}

function spansOf(request: Record<string, unknown>, encoding: Encoding): DecodedSpan[] {
  const out: DecodedSpan[] = [];
  list(request, "resourceSpans", "(root)").forEach((resourceSpans, r) => {
    const where = `resourceSpans[${r}]`;
    const resource = field(resourceSpans, "resource");
    const resourceAttributes = isRecord(resource) ? attributesOf(resource, `${where}.resource`, encoding) : {};
    list(resourceSpans, "scopeSpans", where).forEach((scopeSpans, s) => {
      list(scopeSpans, "spans", `${where}.scopeSpans[${s}]`).forEach((span, i) => {
        const at = `${where}.scopeSpans[${s}].spans[${i}]`;
        const name = field(span, "name");
        out.push({
          traceId: idOf(field(span, "traceId"), 16, encoding),
          spanId: idOf(field(span, "spanId"), 8, encoding),
          name: typeof name === "string" ? name : "",
          startTimeUnixNano: nanosOf(field(span, "startTimeUnixNano")),
          endTimeUnixNano: nanosOf(field(span, "endTimeUnixNano")),
          attributes: attributesOf(span, at, encoding),
          resource: resourceAttributes,
        });
      });
    });
  });
  return out;
}

function attributesOf(owner: Record<string, unknown>, where: string, encoding: Encoding): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of list(owner, "attributes", where)) {
    const key = field(kv, "key");
    if (typeof key !== "string") continue;
    out[key] = anyValue(field(kv, "value"), encoding, 0);
  }
  return out;
}

const MAX_DEPTH = 32;

function anyValue(value: unknown, encoding: Encoding, depth: number): AttributeValue {
  if (!isRecord(value) || depth > MAX_DEPTH) return null;
  const string = field(value, "stringValue");
  if (typeof string === "string") return string;
  const bool = field(value, "boolValue");
  if (typeof bool === "boolean") return bool;
  const int = field(value, "intValue");
  if (typeof int === "number" || (typeof int === "string" && /^-?\d+$/.test(int))) return Number(int);
  const double = field(value, "doubleValue");
  if (typeof double === "number") return double;
  // proto3 JSON writes the special doubles as strings.
  if (typeof double === "string" && ["NaN", "Infinity", "-Infinity"].includes(double)) return Number(double);
  const array = field(value, "arrayValue");
  if (isRecord(array)) {
    const values = field(array, "values");
    return Array.isArray(values) ? values.map((v) => anyValue(v, encoding, depth + 1)) : [];
  }
  const kvlist = field(value, "kvlistValue");
  if (isRecord(kvlist)) {
    const values = field(kvlist, "values");
    const out: Record<string, AttributeValue> = {};
    if (Array.isArray(values)) {
      for (const kv of values) {
        if (isRecord(kv) && typeof kv.key === "string") out[kv.key] = anyValue(kv.value, encoding, depth + 1);
      }
    }
    return out;
  }
  const bytes = field(value, "bytesValue");
  if (Array.isArray(bytes)) return Buffer.from(bytes as number[]).toString("base64");
  if (typeof bytes === "string") return bytes;
  return null;
}

/** An id as lowercase hex of `size` bytes; null when missing, the wrong size or all zero (invalid per OTLP). */
export function idOf(value: unknown, size: number, encoding: Encoding): string | null {
  let hex: string | null = null;
  if (Array.isArray(value) || value instanceof Uint8Array) {
    const bytes = Buffer.from(value as number[]);
    hex = bytes.length === size ? bytes.toString("hex") : null;
  } else if (typeof value === "string") {
    if (new RegExp(`^[0-9a-fA-F]{${size * 2}}$`).test(value)) hex = value.toLowerCase();
    else if (encoding === "json" && /^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
      const bytes = Buffer.from(value, "base64");
      hex = bytes.length === size ? bytes.toString("hex") : null;
    }
  }
  return hex !== null && /[^0]/.test(hex) ? hex : null;
}

function nanosOf(value: unknown): string {
  if (typeof value === "string" && /^\d+$/.test(value)) return value.replace(/^0+(?=\d)/, "");
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return BigInt(Math.trunc(value)).toString();
  return "0";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 120 ? `${message.slice(0, 119)}…` : message;
}
