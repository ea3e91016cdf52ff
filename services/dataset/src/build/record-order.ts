import { NONE, type DatasetRecord, type RangeTable } from '../format/index.js';

export interface OrderedRecords {
  records: DatasetRecord[];
  ipv4: RangeTable;
  ipv6: RangeTable;
}

/**
 * Renumbers the records by the address space they cover, largest first: IPv4 addresses, then
 * IPv6 addresses, then their previous position (so the order is deterministic). On the real
 * data 854 records cover half of IPv4 and ~35,000 cover 80%; readers that keep per-record state
 * in arrays indexed by record (the lookup engine's record objects and batch parts) then find
 * the entries most lookups need side by side in memory. Measured in the engine: in-process
 * lookups of random IPv4 addresses +10-17%.
 */
export function orderRecordsByCoverage(records: readonly DatasetRecord[], ipv4: RangeTable, ipv6: RangeTable): OrderedRecords {
  const v4 = new Float64Array(records.length);
  const v6 = new Float64Array(records.length);
  const v4Ranges = ipv4.records.length;
  for (let i = 0; i < v4Ranges; i++) {
    const record = ipv4.records[i] as number;
    if (record === NONE) continue;
    const next = i + 1 < v4Ranges ? (ipv4.starts[i + 1] as number) : 2 ** 32;
    v4[record] = (v4[record] as number) + next - (ipv4.starts[i] as number);
  }
  const v6Ranges = ipv6.records.length;
  for (let i = 0; i < v6Ranges; i++) {
    const record = ipv6.records[i] as number;
    if (record === NONE) continue;
    v6[record] = (v6[record] as number) + ipv6Size(ipv6.starts, i, v6Ranges);
  }
  const order = Array.from({ length: records.length }, (_, index) => index).sort(
    (a, b) => (v4[b] as number) - (v4[a] as number) || (v6[b] as number) - (v6[a] as number) || a - b,
  );
  const rank = new Uint32Array(records.length);
  order.forEach((record, position) => (rank[record] = position));
  const renumber = (table: RangeTable): RangeTable => ({
    starts: table.starts,
    records: table.records.map((record) => (record === NONE ? NONE : (rank[record] as number))),
  });
  return { records: order.map((record) => records[record] as DatasetRecord), ipv4: renumber(ipv4), ipv6: renumber(ipv6) };
}

/**
 * Addresses in IPv6 range i as a float: word by word differences of the next start and this one,
 * so a /64 inside 2000::/3 keeps its size (subtracting the two addresses as floats would not).
 */
function ipv6Size(starts: Uint32Array, i: number, ranges: number): number {
  let size = 0;
  for (let w = 0; w < 4; w++) {
    const next = i + 1 < ranges ? (starts[(i + 1) * 4 + w] as number) : w === 3 ? 2 ** 32 : 0xffffffff;
    size = size * 2 ** 32 + (next - (starts[i * 4 + w] as number));
  }
  return size;
}
