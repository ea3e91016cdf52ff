/**
 * CRC-32C (Castagnoli), the checksum of Kafka's record batches (magic 2), eight bytes a step
 * ("slicing-by-8"): kafkajs' own takes a table lookup per byte, and the usage ledger's worker
 * checksums every byte it sends (services/bff-en, usage-record-batches.ts).
 */
const POLY = 0x82f63b78;
const TABLES = buildTables();

function buildTables(): Int32Array {
  const tables = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    tables[n] = c;
  }
  // Table k: the CRC of a byte followed by k zero bytes.
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const previous = tables[(k - 1) * 256 + n] as number;
      tables[k * 256 + n] = (tables[previous & 0xff] as number) ^ (previous >>> 8);
    }
  }
  return tables;
}

/** The CRC-32C of bytes `start`..`end` of `data`, as an unsigned 32-bit number. */
export function crc32c(data: Uint8Array, start = 0, end = data.length): number {
  const t = TABLES;
  let crc = -1;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const lo =
      crc ^
      ((data[i] as number) | ((data[i + 1] as number) << 8) | ((data[i + 2] as number) << 16) | ((data[i + 3] as number) << 24));
    const hi =
      (data[i + 4] as number) |
      ((data[i + 5] as number) << 8) |
      ((data[i + 6] as number) << 16) |
      ((data[i + 7] as number) << 24);
    crc =
      (t[1792 + (lo & 0xff)] as number) ^
      (t[1536 + ((lo >>> 8) & 0xff)] as number) ^
      (t[1280 + ((lo >>> 16) & 0xff)] as number) ^
      (t[1024 + (lo >>> 24)] as number) ^
      (t[768 + (hi & 0xff)] as number) ^
      (t[512 + ((hi >>> 8) & 0xff)] as number) ^
      (t[256 + ((hi >>> 16) & 0xff)] as number) ^
      (t[hi >>> 24] as number);
  }
  for (; i < end; i++) crc = (t[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return ~crc >>> 0;
}
