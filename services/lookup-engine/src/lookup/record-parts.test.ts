import { describe, expect, it } from 'vitest';
import { syntheticDataset } from '../../test/fixtures/synthetic-dataset.js';
import { LoadedDataset } from '../dataset/loaded-dataset.js';
import { PART_KINDS, RecordParts, ZONE } from './record-parts.js';

const dataset = LoadedDataset.fromBytes(syntheticDataset('record-parts'));

/** Each record's parts as their contents (bytes, or zone name), read back through the ids. */
function contents(parts: RecordParts): string[][] {
  const out: string[][] = [];
  for (let record = 0; record < dataset.summary.records; record++) {
    const base = parts.of(record);
    const row: string[] = [];
    for (let kind = 0; kind < PART_KINDS; kind++) {
      const id = (parts.ids[base + kind] as number) - 1;
      if (id < 0) row.push('-');
      else if (kind === ZONE) row.push(`zone ${parts.zones[id]}`);
      else {
        const offset = parts.spans[2 * id] as number;
        row.push(Buffer.from(parts.arena.subarray(offset, offset + (parts.spans[2 * id + 1] as number))).toString('hex'));
      }
    }
    out.push(row);
  }
  return out;
}

describe('RecordParts', () => {
  it('gives records with the same part content the same part, and different content different parts', () => {
    const parts = new RecordParts(dataset);
    const rows = contents(parts);
    const idByContent = new Map<string, number>();
    for (let record = 0; record < rows.length; record++) {
      for (let kind = 0; kind < PART_KINDS; kind++) {
        const content = `${kind}:${rows[record]?.[kind]}`;
        const id = parts.ids[parts.of(record) + kind] as number;
        if (id === 0) continue;
        expect(idByContent.get(content) ?? id).toBe(id);
        idByContent.set(content, id);
      }
    }
    expect(new Set(idByContent.values()).size).toBe(idByContent.size);
    expect(parts.count).toBe(idByContent.size);
  });

  it('tells parts apart by their bytes when every hash collides', () => {
    const hashed = new RecordParts(dataset);
    const honest = contents(hashed);
    const colliding = new RecordParts(dataset, () => 7);
    expect(contents(colliding)).toEqual(honest);
    expect(colliding.count).toBe(hashed.count);
    expect(hashed.count).toBeGreaterThan(PART_KINDS);
  });
});
