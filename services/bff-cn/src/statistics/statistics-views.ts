import type {
  AddressCounts,
  CountryStatistics,
  DatasetVersionStatistics,
  IdcOrganization,
  ProvinceStatistics,
} from '@ipdata/proto/lookup/v1/lookup';
import type { Trend, TrendCount } from '@ipdata/proto/stats/v1/stats';

/**
 * The statistics answers of face A as plain mappings from the lookup engine's and stats' messages
 * (snake_case, Chinese names first). IPv6 counts stay decimal strings: they reach 2^128, beyond
 * what a JSON number holds exactly; `ipv6_slash32` is the rounded figure in /32 blocks.
 */
export interface CountsView {
  ipv4: number;
  ipv6: string;
  ipv6_slash32: number;
}

const ZERO: CountsView = { ipv4: 0, ipv6: '0', ipv6_slash32: 0 };
const DAY_MS = 86_400_000;

export function countsView(counts: AddressCounts | undefined): CountsView {
  if (counts === undefined) return { ...ZERO };
  return { ipv4: counts.ipv4, ipv6: counts.ipv6 === '' ? '0' : counts.ipv6, ipv6_slash32: counts.ipv6Slash32 };
}

/** Node's ICU names regions the way the dataset build does (zh-CN); unknown codes stay as they are. */
const ZH_REGIONS = new Intl.DisplayNames(['zh-CN'], { type: 'region', fallback: 'code' });

/** A country's name: the dataset's Chinese name, else ICU's, else the English one, else the code. */
export function countryName(code: string, nameZh?: string, nameEn?: string): string {
  if (nameZh) return nameZh;
  if (/^[A-Z]{2}$/.test(code)) {
    const icu = ZH_REGIONS.of(code);
    if (icu !== undefined && icu !== code) return icu;
  }
  return nameEn || code;
}

export function countryRow(country: CountryStatistics) {
  return {
    country_code: country.countryCode,
    name: countryName(country.countryCode, country.nameZh, country.nameEn),
    name_en: country.nameEn ?? null,
    ...countsView(country.addresses),
  };
}

export function provinceRow(province: ProvinceStatistics) {
  return {
    code: province.code,
    name: province.name,
    short_name: province.shortName,
    name_en: province.nameEn,
    ...countsView(province.addresses),
    idc_organizations: province.idcOrganizations,
  };
}

export function idcRow(organization: IdcOrganization) {
  return {
    name: organization.name,
    name_zh: organization.nameZh ?? null,
    organization: organization.organization,
    asns: organization.asns,
    prefix_count: organization.prefixCount,
    ...countsView(organization.addresses),
    provinces: organization.provinces.map((province) => ({
      code: province.code,
      short_name: province.shortName,
      ...countsView(province.addresses),
    })),
  };
}

/** `current − previous`: IPv4 as a number, IPv6 as a signed decimal string (exact, BigInt). */
export function countsChange(current: AddressCounts | undefined, previous: AddressCounts | undefined) {
  const now = countsView(current);
  const before = countsView(previous);
  return {
    ipv4_change: now.ipv4 - before.ipv4,
    ipv6_change: (BigInt(now.ipv6) - BigInt(before.ipv6)).toString(),
  };
}

/** The version, its build time, and what the update call compares it with. */
export function versionView(version: Pick<DatasetVersionStatistics, 'version' | 'builtAt'> | undefined) {
  if (version === undefined) return null;
  return { version: version.version, built_at: version.builtAt?.toISOString() ?? null };
}

/**
 * Rows of the current version with their change against the previous one, largest IPv4 change
 * (either way) first; rows present in only one version count the other as zero. Without a previous
 * version every change is null (nothing to compare with).
 */
export function changedRows<T extends { addresses?: AddressCounts | undefined }, R>(
  current: readonly T[],
  previous: readonly T[] | undefined,
  key: (row: T) => string,
  view: (row: T) => R,
): (R & { ipv4_change: number | null; ipv6_change: string | null })[] {
  if (previous === undefined) return current.map((row) => ({ ...view(row), ipv4_change: null, ipv6_change: null }));
  const before = new Map(previous.map((row) => [key(row), row]));
  const present = new Set(current.map(key));
  const vanished = previous.filter((row) => !present.has(key(row))).map((row): T => ({ ...row, addresses: undefined }));
  const rows = [...current, ...vanished].map((row) => ({
    ...view(row),
    ...countsChange(row.addresses, before.get(key(row))?.addresses),
  }));
  return rows.sort((a, b) => Math.abs(b.ipv4_change) - Math.abs(a.ipv4_change) || compareBig(b.ipv6_change, a.ipv6_change));
}

function compareBig(a: string, b: string): number {
  const abs = (text: string) => (text.startsWith('-') ? BigInt(text.slice(1)) : BigInt(text));
  const difference = abs(a) - abs(b);
  return difference > 0n ? 1 : difference < 0n ? -1 : 0;
}

/** A division by its code ("44"), name ("广东省"), short name ("广东"), English name or ISO code (HK, MO, TW). */
export function findProvince(provinces: readonly ProvinceStatistics[], text: string): ProvinceStatistics | undefined {
  const wanted = text.trim().toLowerCase();
  const iso: Record<string, string> = { hk: '81', mo: '82', tw: '71' };
  return provinces.find(
    (province) =>
      province.code === wanted ||
      province.name === text.trim() ||
      province.shortName === text.trim() ||
      province.nameEn.toLowerCase() === wanted ||
      iso[wanted] === province.code,
  );
}

/** The last `days` UTC days up to and including today: [from, to). */
export function dayRange(now: Date, days: number): { from: Date; to: Date } {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { from: new Date(today - (days - 1) * DAY_MS), to: new Date(today + DAY_MS) };
}

export interface TrendCountView {
  key: string;
  name: string;
  requests: number;
  lookups: number;
}

export interface TrendOptions {
  /** Keys to keep (e.g. only the country asked for). */
  keep: (key: string) => boolean;
  /** The name shown for a key (Chinese first). */
  name: (key: string) => string;
  /** Per-key rows kept per day and in the total, largest first; the sums count every kept key. */
  top: number;
}

/**
 * stats' daily buckets as one row per day of the range (days without lookups included, with
 * zeros, so a chart gets every day), each with its sums and its largest per-key counts.
 */
export function trendDays(range: { from: Date; to: Date }, trend: Trend, options: TrendOptions) {
  const rows = (counts: readonly TrendCount[]) => {
    const kept = counts.filter((count) => options.keep(count.key));
    const list = kept
      .map((count) => ({ key: count.key, name: options.name(count.key), requests: count.requests, lookups: count.lookups }))
      .sort((a, b) => b.requests - a.requests || b.lookups - a.lookups || (a.key < b.key ? -1 : 1))
      .slice(0, options.top);
    return { ...sum(kept), counts: list };
  };
  const byDay = new Map(trend.buckets.map((bucket) => [dayText(bucket.periodStart), bucket.counts]));
  const days = [];
  for (let at = range.from.getTime(); at < range.to.getTime(); at += DAY_MS) {
    const day = dayText(new Date(at));
    days.push({ day, ...rows(byDay.get(day) ?? []) });
  }
  return { from: dayText(range.from), to: dayText(new Date(range.to.getTime() - DAY_MS)), days, total: rows(trend.total) };
}

function sum(counts: readonly { requests: number; lookups: number }[]): { requests: number; lookups: number } {
  return counts.reduce((acc, count) => ({ requests: acc.requests + count.requests, lookups: acc.lookups + count.lookups }), {
    requests: 0,
    lookups: 0,
  });
}

function dayText(date: Date | undefined): string {
  return date === undefined ? '' : date.toISOString().slice(0, 10);
}

/** 1-based page of a list: the slice and the paging fields of face A's answers. */
export function pageOf<T>(rows: readonly T[], page: number, pageSize: number) {
  return { list: rows.slice((page - 1) * pageSize, page * pageSize), page, page_size: pageSize, total: rows.length };
}
