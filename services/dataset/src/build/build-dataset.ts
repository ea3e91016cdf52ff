import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { DATASET_FILE, encodeDataset, FORMAT_VERSION, type DatasetContent } from '../format/index.js';
import { writeDatabases } from '../output/databases.js';
import { HashedFile, type WrittenFile } from '../output/hashed-file.js';
import { writeMmdbEdition } from '../output/mmdb/mmdb-edition.js';
import { isCompleteVersion, MANIFEST, publishFolder, temporaryFolder, writeCurrent } from '../output/version-folder.js';
import { hashInputs, type SourceDescription } from '../sources/source-catalogue.js';
import { computeStatistics } from '../statistics/compute-statistics.js';
import { STATISTICS_FILE } from '../statistics/statistics-file.js';
import { assembleDataset, type RuleCount } from './assemble-dataset.js';
import { loadSources, type SourceInputs } from './load-sources.js';
import type { BuildReporter } from './progress.js';

/**
 * Part of every version's hash beside the inputs: bumped whenever the build writes different
 * files from the same inputs, so such a build gets a new version instead of being skipped as
 * "already complete". 2: records ordered by coverage (record-order.ts). 3: the MMDB edition
 * (ipdata-city.mmdb), so a cached version without it is not taken as complete. 4: statistics.json
 * (src/statistics/), likewise.
 */
export const BUILD_REVISION = 4;

export interface BuildOptions {
  inputs: SourceInputs;
  /** Every source (packages, rule files, ICU), for the version hash, the manifest and the header. */
  sources: SourceDescription[];
  datasetsDir: string;
  force: boolean;
  /** Seconds since the epoch (SOURCE_DATE_EPOCH); otherwise builtAt is the newest source date. */
  sourceDateEpoch: number | null;
  reporter: BuildReporter;
}

export interface Manifest {
  datasetVersion: string;
  builtAt: string;
  format: { file: string; formatVersion: number };
  counts: { records: number; ipv4Ranges: number; ipv6Ranges: number; asns: number };
  privacyRules: RuleCount[];
  sources: Array<{ name: string; origin: string; version: string; licence: string; files: string[]; licenceFiles: string[] }>;
  files: WrittenFile[];
}

export interface BuildResult {
  version: string;
  folder: string;
  /** True when the version already existed complete and nothing was written. */
  skipped: boolean;
  manifest: Manifest;
  /** manifest.json itself (not listed inside it). */
  manifestFile: WrittenFile;
}

function readManifest(folder: string): Manifest {
  return JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8')) as Manifest;
}

function describeFile(folder: string, name: string): WrittenFile {
  const bytes = readFileSync(join(folder, name));
  return { name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** version = newest source date + "-" + first 8 hex digits of the hash over all inputs. */
export function datasetIdentity(sources: readonly SourceDescription[], digest: string, sourceDateEpoch: number | null) {
  const dates = sources.map((source) => source.date).filter((date): date is string => date !== null);
  const newest = dates.sort().pop() ?? '1970-01-01';
  return {
    version: `${newest.replaceAll('-', '.')}-${digest.slice(0, 8)}`,
    builtAt: sourceDateEpoch === null ? new Date(`${newest}T00:00:00Z`) : new Date(sourceDateEpoch * 1000),
  };
}

/**
 * The whole build: hash the inputs into a version, skip when that version is already complete,
 * otherwise read every source, merge, and write all files into a temporary folder that is
 * renamed into place at the end (so a version folder is either complete or absent).
 */
export function buildDataset(options: BuildOptions): BuildResult {
  const { reporter, sources } = options;
  const root = resolve(options.datasetsDir);
  const digest = createHash('sha256')
    .update(`build revision ${BUILD_REVISION}\u0000`)
    .update(hashInputs(sources, reporter.step('hashing source files')))
    .digest('hex');
  const { version, builtAt } = datasetIdentity(sources, digest, options.sourceDateEpoch);
  const folder = join(root, version);

  if (!options.force && isCompleteVersion(folder)) {
    reporter.say(`version ${version} already exists and is complete in ${folder}; nothing to do (use --force to rebuild)`);
    writeCurrent(root, version);
    return { version, folder, skipped: true, manifest: readManifest(folder), manifestFile: describeFile(folder, MANIFEST) };
  }

  const loaded = loadSources(options.inputs, reporter);
  const sourceInfo = sources.map(({ name, version: v, licence }) => ({ name, version: v, licence }));
  const { content, ruleCounts } = assembleDataset(loaded, { datasetVersion: version, builtAt, sources: sourceInfo }, reporter);
  for (const { rule, ipv4Ranges, ipv6Ranges } of ruleCounts) {
    reporter.say(`privacy rule ${rule}: flagged ${ipv4Ranges + ipv6Ranges} ranges (${ipv4Ranges} IPv4, ${ipv6Ranges} IPv6)`);
  }

  const temporary = temporaryFolder(root, version);
  try {
    writeVersion(temporary, content, sources, ruleCounts, reporter);
    publishFolder(temporary, folder);
  } catch (error) {
    // Never leave a half-written version behind.
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
  writeCurrent(root, version);
  reporter.say(
    `built ${version} in ${folder}: ${content.records.length} records, ${content.ipv4.records.length} IPv4 ranges, ` +
      `${content.ipv6.records.length} IPv6 ranges, ${content.asns.length} ASNs`,
  );
  return { version, folder, skipped: false, manifest: readManifest(folder), manifestFile: describeFile(folder, MANIFEST) };
}

function writeVersion(
  folder: string,
  content: DatasetContent,
  sources: readonly SourceDescription[],
  ruleCounts: RuleCount[],
  reporter: BuildReporter,
): Manifest {
  const encodeStep = reporter.step('encoding the dataset file');
  encodeStep(0);
  const binary = new HashedFile(join(folder, DATASET_FILE), DATASET_FILE);
  binary.writeBytes(encodeDataset(content));
  const files: WrittenFile[] = [binary.close()];
  encodeStep(1);

  files.push(
    ...writeDatabases(
      folder,
      [
        { table: content.ipv4, words: 1 },
        { table: content.ipv6, words: 4 },
      ],
      content.records,
      reporter.step('writing geolocation, privacy and ASN databases (CSV, NDJSON, samples)'),
    ),
  );

  const mmdbStarted = performance.now();
  const mmdb = writeMmdbEdition(folder, content, reporter.step('writing the MMDB edition (ipdata-city.mmdb)'));
  files.push(mmdb.file);
  reporter.say(
    `MMDB edition in ${((performance.now() - mmdbStarted) / 1000).toFixed(1)} s: ${mmdb.stats.size} bytes, ${mmdb.stats.nodeCount} nodes, ${mmdb.stats.recordSize}-bit records, ` +
      `${mmdb.stats.networks} networks, ${mmdb.stats.shadowedIpv6Runs} IPv6 ranges with data under the IPv4 blocks`,
  );

  const statisticsStep = reporter.step('counting addresses per country, Chinese province and IDC organisation');
  statisticsStep(0);
  const statisticsStarted = performance.now();
  const statistics = computeStatistics(content);
  const statisticsFile = new HashedFile(join(folder, STATISTICS_FILE), STATISTICS_FILE);
  statisticsFile.write(`${JSON.stringify(statistics, null, 1)}\n`);
  files.push(statisticsFile.close());
  statisticsStep(1);
  reporter.say(
    `statistics in ${((performance.now() - statisticsStarted) / 1000).toFixed(1)} s: ${statistics.countries.length} countries, ` +
      `${statistics.total.ipv4} IPv4 and ${statistics.total.ipv6} IPv6 addresses with a country, ` +
      `${statistics.china.provinces.filter((province) => province.ipv4 > 0 || province.ipv6 !== '0').length} Chinese divisions with addresses, ` +
      `${statistics.idc.length} IDC organisations`,
  );

  // Licence texts travel with the data they cover.
  const licenceNames = new Map<string, string[]>();
  mkdirSync(join(folder, 'licences'));
  for (const source of sources) {
    const names = source.licenceFiles.map((path) => {
      const name = `licences/${source.name}-${basename(path)}`;
      const file = new HashedFile(join(folder, name), name);
      file.writeBytes(readFileSync(path));
      files.push(file.close());
      return name;
    });
    licenceNames.set(source.name, names);
  }

  const manifest: Manifest = {
    datasetVersion: content.datasetVersion,
    builtAt: content.builtAt.toISOString(),
    format: { file: DATASET_FILE, formatVersion: FORMAT_VERSION },
    counts: {
      records: content.records.length,
      ipv4Ranges: content.ipv4.records.length,
      ipv6Ranges: content.ipv6.records.length,
      asns: content.asns.length,
    },
    privacyRules: ruleCounts,
    sources: sources.map((source) => ({
      name: source.name,
      origin: source.origin,
      version: source.version,
      licence: source.licence,
      files: source.files.map((path) => basename(path)),
      licenceFiles: licenceNames.get(source.name) ?? [],
    })),
    files: files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
  const manifestFile = new HashedFile(join(folder, MANIFEST), MANIFEST);
  manifestFile.write(`${JSON.stringify(manifest, null, 2)}\n`);
  manifestFile.close();
  return manifest;
}
