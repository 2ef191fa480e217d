/**
 * The OTLP trace messages this endpoint reads and writes, for protobufjs (lib/capture/README.md
 * "Capture from production"). A subset of opentelemetry-proto's `collector/trace/v1`,
 * `trace/v1`, `common/v1` and `resource/v1`, with the same field numbers and types; fields left
 * out (events, links, dropped counts, flags) are skipped by the decoder as unknown fields.
 * Plus google.rpc.Status, the body of an error answer.
 */
import protobuf from "protobufjs";

const OTLP_PROTO = `
syntax = "proto3";
package otlp;

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }

message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; }

message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  SpanStatus status = 15;
}
message SpanStatus { string message = 2; int32 code = 3; }

message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }

message Status { int32 code = 1; string message = 2; }
`;

const root = protobuf.parse(OTLP_PROTO, { keepCase: false }).root;

export const ExportTraceServiceRequest = root.lookupType("otlp.ExportTraceServiceRequest");
export const ExportTraceServiceResponse = root.lookupType("otlp.ExportTraceServiceResponse");
export const RpcStatus = root.lookupType("otlp.Status");
