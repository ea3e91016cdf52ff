import type { ICustomPartitioner, PartitionerArgs } from 'kafkajs';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/**
 * Kafka's murmur2 (the Java client's `Utils.murmur2`) on 32-bit integers. kafkajs' own version
 * emulates 64-bit arithmetic with a Long object per step, which made the key hash a tenth of the
 * usage ledger's producer CPU; the low 32 bits it keeps are exactly these (property test beside).
 * `start`/`end`: the key's bytes inside a larger buffer.
 */
export function murmur2(data: Uint8Array, start = 0, end = data.length): number {
  const length = end - start;
  let h = SEED ^ length;
  const whole = start + (length & ~3);
  for (let i = start; i < whole; i += 4) {
    let k =
      (data[i] as number) | ((data[i + 1] as number) << 8) | ((data[i + 2] as number) << 16) | ((data[i + 3] as number) << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The Java switch falls through from the third trailing byte to the first.
  const tail = length & 3;
  if (tail === 3) h ^= (data[whole + 2] as number) << 16;
  if (tail >= 2) h ^= (data[whole + 1] as number) << 8;
  if (tail >= 1) {
    h ^= data[whole] as number;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

const toPositive = (value: number) => value & 0x7fffffff;

/** The partition of a key's murmur2 hash, as the Java clients and Murmur2Partitioner map it. */
export const keyPartition = (hash: number, partitions: number): number => toPositive(hash) % partitions;

/**
 * kafkajs' DefaultPartitioner, the same decisions (an explicit partition; else murmur2 of the key,
 * the Java clients' key → partition mapping; else round robin over partitions with a leader) on
 * the fast hash above. For `createPartitioner` of every producer.
 */
export const Murmur2Partitioner: ICustomPartitioner = () => {
  const counters = new Map<string, number>();
  return ({ topic, partitionMetadata, message }: PartitionerArgs): number => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    const key = message.key;
    if (key !== null && key !== undefined) {
      const bytes = typeof key === 'string' ? Buffer.from(key) : key;
      return keyPartition(murmur2(bytes), partitionMetadata.length);
    }
    const counter = (counters.get(topic) ?? Math.floor(Math.random() * 0x7fffffff)) + 1;
    counters.set(topic, counter);
    const available = partitionMetadata.filter((partition) => partition.leader >= 0);
    const choices = available.length > 0 ? available : partitionMetadata;
    return (choices[toPositive(counter) % choices.length] as { partitionId: number }).partitionId;
  };
};
