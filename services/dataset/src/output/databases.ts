import { FLAG, NONE, type DatasetRecord, type RangeTable } from '../format/index.js';
import { decrementAt, formatAddress, type WordsPerAddress } from '../ranges/address.js';
import type { WrittenFile } from './hashed-file.js';
import { encodeCells, float32Text, TableWriter, type Cell, type Column, type EncodedCells } from './table-writer.js';

/** One downloadable database: its columns and how a record projects onto them (null: no row). */
export interface DatabaseSpec {
  name: string;
  columns: Column[];
  project(record: DatasetRecord): Cell[] | null;
}

const col = (name: string, kind: Column['kind'] = 'text'): Column => ({ name, kind });
const PRIVACY_FLAGS = FLAG.isVpn | FLAG.isTor | FLAG.isDataCenter | FLAG.isProxy | FLAG.isRelay | FLAG.isHosting;

export const DATABASES: readonly DatabaseSpec[] = [
  {
    name: 'geolocation',
    columns: [
      col('country_code'),
      col('country_name'),
      col('region_name'),
      col('city_name'),
      col('zip_code'),
      col('latitude', 'float'),
      col('longitude', 'float'),
      col('time_zone'),
      col('continent_code'),
      col('is_eu', 'bool'),
    ],
    project: ({ fields: f, latitude, longitude, flags }) =>
      f.country_code == null && latitude === null
        ? null
        : [
            f.country_code ?? null,
            f.country_name ?? null,
            f.region_name ?? null,
            f.city_name ?? null,
            f.zip_code ?? null,
            latitude === null ? null : float32Text(latitude),
            longitude === null ? null : float32Text(longitude),
            f.time_zone ?? null,
            f.continent_code ?? null,
            (flags & FLAG.isEuKnown) === 0 ? null : (flags & FLAG.isEu) !== 0,
          ],
  },
  {
    name: 'privacy',
    columns: [
      col('is_vpn', 'bool'),
      col('is_tor', 'bool'),
      col('is_data_center', 'bool'),
      col('is_proxy', 'bool'),
      col('is_relay', 'bool'),
      col('is_hosting', 'bool'),
      col('privacy_rule'),
    ],
    project: ({ fields, flags }) =>
      (flags & PRIVACY_FLAGS) === 0
        ? null
        : [
            (flags & FLAG.isVpn) !== 0,
            (flags & FLAG.isTor) !== 0,
            (flags & FLAG.isDataCenter) !== 0,
            (flags & FLAG.isProxy) !== 0,
            (flags & FLAG.isRelay) !== 0,
            (flags & FLAG.isHosting) !== 0,
            fields.privacy_rule ?? null,
          ],
  },
  {
    name: 'asn',
    columns: [col('asn', 'int'), col('asn_name'), col('organization'), col('usage_type')],
    project: ({ asn, fields }) =>
      asn === null ? null : [asn, fields.asn_name ?? null, fields.organization ?? null, fields.usage_type ?? null],
  },
];

/**
 * Writes every database: the IPv4 table's ranges, then IPv6's, each row `start_ip,end_ip`
 * followed by the record's projection; neighbouring ranges with the same projection become one
 * row and ranges projecting to nothing (no data for that database) are left out.
 */
export function writeDatabases(
  folder: string,
  tables: ReadonlyArray<{ table: RangeTable; words: WordsPerAddress }>,
  records: readonly DatasetRecord[],
  progress?: (fraction: number) => void,
): WrittenFile[] {
  const files: WrittenFile[] = [];
  const totalRanges = tables.reduce((sum, { table }) => sum + table.records.length, 0) * DATABASES.length;
  let done = 0;
  let nextReport = 0;
  for (const spec of DATABASES) {
    // Project and encode every record once; equal projections share an id so runs compare cheaply.
    const keys = new Map<string, number>();
    const projections: EncodedCells[] = [];
    const projectionOf = new Uint32Array(records.length);
    records.forEach((record, index) => {
      const cells = spec.project(record);
      if (cells === null) {
        projectionOf[index] = NONE;
        return;
      }
      const encoded = encodeCells(spec.columns, cells);
      let id = keys.get(encoded.json);
      if (id === undefined) {
        id = projections.length;
        projections.push(encoded);
        keys.set(encoded.json, id);
      }
      projectionOf[index] = id;
    });

    const writer = new TableWriter(folder, spec.name, spec.columns);
    for (const { table, words } of tables) {
      const count = table.records.length;
      const end = new Uint32Array(words);
      let i = 0;
      while (i < count) {
        const record = table.records[i] as number;
        const projection = record === NONE ? NONE : (projectionOf[record] as number);
        let j = i + 1;
        while (j < count) {
          const next = table.records[j] as number;
          if ((next === NONE ? NONE : projectionOf[next]) !== projection) break;
          j++;
        }
        if (projection !== NONE) {
          if (j < count) {
            end.set(table.starts.subarray(j * words, j * words + words));
            decrementAt(end, 0, words);
          } else {
            end.fill(0xffffffff);
          }
          writer.row(
            formatAddress(table.starts, i * words, words),
            formatAddress(end, 0, words),
            projections[projection] as EncodedCells,
          );
        }
        done += j - i;
        if (progress && done >= nextReport) {
          progress(done / totalRanges);
          nextReport = done + 65536;
        }
        i = j;
      }
    }
    files.push(...writer.close());
  }
  progress?.(1);
  return files;
}
