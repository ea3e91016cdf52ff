/** Protobuf wire types and tags, shared by the encoders (wire-sink.ts) and decoders (wire-cursor.ts). */
export const VARINT = 0;
export const I64 = 1;
export const LEN = 2;
export const I32 = 5;

/** A field's tag: field number and wire type. */
export const tag = (field: number, wire: number): number => (field << 3) | wire;

/**
 * Buffer's own slice decoders, which toString(encoding, start, end) calls after argument checks
 * (~25% of the decoding time here). Not in @types/node, but present since Node 0.x; the unit
 * tests fail loudly should a Node release drop them.
 */
export interface SlicingBuffer extends Buffer {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
}
