/** A vector as stored in `memories.embedding`: float32 little-endian bytes, base64. */
export function encodeVector(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64");
}

export function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, "base64");
  // Copy into a fresh, aligned buffer: Buffer.from may hand back a slice of a shared pool.
  const out = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
