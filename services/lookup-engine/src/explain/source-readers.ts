import { openIpdb, openMmdb, packagedSources, type IpdbFile, type MmdbFile } from '@ipdata/dataset/sources';
import { AsnSourceTable } from './asn-source-table.js';
import { prefixNetwork, rangeText, type SourceAddress } from './source-address.js';

/** One source's own answer for an address: its network and fields as text, or nothing. */
export interface SourceReading {
  network: string | null;
  fields: Record<string, string>;
}

/** A source the explanation reads: its name as in the dataset's sources, and the version read. */
export interface ExplainedSource {
  name: string;
  readVersion: string;
  read(address: SourceAddress): SourceReading;
}

const NOTHING: SourceReading = { network: null, fields: {} };

/** Source fields as text: empty values are left out (the sources write "" for "unknown"). */
function textFields(record: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === null || value === undefined || value === '') continue;
    fields[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return fields;
}

function geoliteSource(version: string, v4: MmdbFile, v6: MmdbFile): ExplainedSource {
  return {
    name: 'geolite2-city',
    readVersion: version,
    read(address) {
      const found = (address.family === 4 ? v4 : v6).lookup(address.family, address.words);
      if (found === null || typeof found.record !== 'object' || found.record === null) return NOTHING;
      return { network: prefixNetwork(address, found.prefixLength), fields: textFields(found.record as Record<string, unknown>) };
    },
  };
}

function asnSource(version: string, table: AsnSourceTable): ExplainedSource {
  return {
    name: 'asn',
    readVersion: version,
    read(address) {
      const entry = table.find(address);
      if (entry === null) return NOTHING;
      return {
        network: rangeText(address.family, entry.first, entry.last),
        fields: textFields({ asn: entry.asn, organization: entry.organization }),
      };
    },
  };
}

function qqwrySource(version: string, file: IpdbFile): ExplainedSource {
  return {
    name: 'qqwry',
    readVersion: version,
    read(address) {
      const found = file.find(address.family, address.words);
      if (found === null) return NOTHING;
      return { network: prefixNetwork(address, found.prefixLength), fields: textFields(file.record(found.pointer, 'CN')) };
    },
  };
}

/**
 * Opens the address sources the dataset build reads (GeoLite2 City, the ASN CSVs, qqwry), found
 * through the build's own source catalogue. Expensive (about 130 MB of files, the CSVs parsed):
 * done once, on the first ExplainAddress, never at engine start. Yields between files so calls
 * already queued are not all held for the whole load.
 */
export async function openExplainedSources(): Promise<ExplainedSource[]> {
  const { sources, paths } = packagedSources();
  const versionOf = (name: string) => sources.find((source) => source.name === name)?.version ?? '';
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const geoliteV4 = openMmdb(paths.geoliteV4);
  await turn();
  const geoliteV6 = openMmdb(paths.geoliteV6);
  await turn();
  const asn = new AsnSourceTable(paths.asnV4, paths.asnV6);
  await turn();
  const qqwry = openIpdb(paths.qqwry);
  return [
    geoliteSource(versionOf('geolite2-city'), geoliteV4, geoliteV6),
    asnSource(versionOf('asn'), asn),
    qqwrySource(versionOf('qqwry'), qqwry),
  ];
}
