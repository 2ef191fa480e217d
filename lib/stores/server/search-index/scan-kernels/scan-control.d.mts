// Types of scan-control.mjs (plain JS, shared with the helper thread).
export const GEN: number;
export const CLAIM: number;
export const DONE: number;
export const READY: number;
export const KERNEL: number;
export const CHUNKS: number;
export const CHUNK_ROWS: number;
export const ROWS: number;
export const QUERY: number;
export const MATRIX: number;
export const STRIDE: number;
export const OUT: number;
export const SLOTS: number;
export const KERNELS: readonly ("dotF32" | "dotI8" | "streamRows")[];
export function claimChunk(control: Int32Array, gen: number, chunks: number): number;
