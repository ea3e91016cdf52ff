import { join } from 'node:path';
import { NONE, type DatasetContent } from '../../format/index.js';
import { HashedFile, type WrittenFile } from '../hashed-file.js';
import { DataSectionWriter } from './mmdb-data.js';
import { icuCountryNames, MMDB_LANGUAGES, MmdbRecordMapper } from './mmdb-record.js';
import { writeMmdb, type MmdbStats } from './mmdb-writer.js';
import { dataRecord, EMPTY, foldRuns } from './search-tree.js';

/** The MMDB edition's file name in a version folder. */
export const MMDB_FILE = 'ipdata-city.mmdb';
export const MMDB_DATABASE_TYPE = 'ipdata-City';

/**
 * Writes `ipdata-city.mmdb` from the build's in-memory dataset: each record mapped to its MMDB
 * map (mmdb-record.ts), equal maps given one data id, neighbouring ranges with the same id
 * folded into runs, the runs written as one IPv6 tree with IPv4 at ::/96. The manifest's row
 * count is the number of networks (tree records with data).
 */
export function writeMmdbEdition(
  folder: string,
  content: DatasetContent,
  progress?: (fraction: number) => void,
): { file: WrittenFile; stats: MmdbStats } {
  // Each distinct map is encoded as soon as it is met: no per-record map outlives its record.
  const mapper = new MmdbRecordMapper(icuCountryNames());
  const section = new DataSectionWriter(true);
  const ids = new Map<string, number>();
  const offsets: number[] = [];
  const valueOf = new Uint32Array(content.records.length);
  content.records.forEach((record, index) => {
    const mapped = mapper.map(record);
    if (mapped === null) {
      valueOf[index] = EMPTY;
      return;
    }
    let id = ids.get(mapped.key);
    if (id === undefined) {
      id = offsets.length;
      offsets.push(section.add(mapped.value));
      ids.set(mapped.key, id);
    }
    valueOf[index] = dataRecord(id);
  });
  ids.clear();
  progress?.(0.2);

  const runs = (table: DatasetContent['ipv4'], words: 1 | 4) =>
    foldRuns(words, table.starts, table.records.length, (range) => {
      const record = table.records[range] as number;
      return record === NONE ? EMPTY : (valueOf[record] as number);
    });
  const file = new HashedFile(join(folder, MMDB_FILE), MMDB_FILE);
  const stats = writeMmdb(
    file,
    {
      ipv4: runs(content.ipv4, 1),
      ipv6: runs(content.ipv6, 4),
      data: { section, offsets },
      databaseType: MMDB_DATABASE_TYPE,
      description: {
        en: `ipdata geolocation, ASN and privacy data ${content.datasetVersion} (MMDB edition)`,
        'zh-CN': `ipdata 地理位置、ASN 与隐私数据 ${content.datasetVersion}（MMDB 版）`,
      },
      languages: MMDB_LANGUAGES,
      buildEpoch: Math.floor(content.builtAt.getTime() / 1000),
    },
    progress && ((fraction) => progress(0.2 + 0.8 * fraction)),
  );
  return { file: file.close(stats.networks), stats };
}
