import { InvalidArgumentError } from '@ipdata/common';
import type { GetDatasetStatisticsResponse, DatasetVersionStatistics } from '@ipdata/proto/lookup/v1/lookup';
import { CODE, FaceAError } from '../face-a/envelope.js';
import { defineCall, type FaceACall } from '../face-a/face-a-call.js';
import type { FieldSpec } from '../face-a/input-schema.js';
import type { DatasetStatisticsSource, LookupTrendSource } from '../statistics/statistics.ports.js';
import {
  changedRows,
  countryName,
  countryRow,
  countsChange,
  countsView,
  dayRange,
  findProvince,
  idcRow,
  pageOf,
  provinceRow,
  trendDays,
  versionView,
} from '../statistics/statistics-views.js';

export interface StatisticsCallsDeps {
  statistics: DatasetStatisticsSource;
  trends: LookupTrendSource;
  now?: () => Date;
}

const page = { kind: 'int', label: '页码', required: false, min: 1, max: 100_000, default: 1 } as const satisfies FieldSpec;
const pageSize = (fallback: number, max: number) =>
  ({ kind: 'int', label: '每页条数', required: false, min: 1, max, default: fallback }) as const satisfies FieldSpec;
const country = {
  kind: 'string',
  label: '国家代码',
  required: false,
  // Longer than the pattern allows, so that "china" gets the pattern's message, not a length one.
  maxLength: 16,
  pattern: /^[A-Za-z]{2}$/,
  patternMsg: '请输入正确的国家代码（两位字母，如 CN）',
} as const satisfies FieldSpec;
const province = { kind: 'string', label: '省份', required: false, maxLength: 32 } as const satisfies FieldSpec;
const days = { kind: 'int', label: '天数', required: false, min: 1, max: 90, default: 30 } as const satisfies FieldSpec;

const BAD_PROVINCE = '请输入正确的省份（如 广东、广东省 或 44）';
/** Versions read for the history of the trends and to find the previous version of the updates. */
const HISTORY_VERSIONS = 30;
/** Per-key rows per day of a trend (the sums count all). */
const TREND_TOP = 10;

/**
 * Face A's statistics pages (README "Statistics calls"): address counts of the dataset served by
 * the lookup engine (its statistics RPCs), the change against the previous dataset version, the
 * IDC organisations, and face A's lookup trends from stats next to the per-version address counts.
 * They look no address up: not rate-limited, no usage event.
 */
export function statisticsCalls(deps: StatisticsCallsDeps): FaceACall[] {
  // Only read inside the handlers: FACE_A_CALLS lists the table without dependencies.
  const now = () => deps.now?.() ?? new Date();
  const call = (name: string) => ({ name, path: `/v1/${name}`, methods: ['POST'] as const, needsLogin: false, silent: true });

  /** The version before the one served (history is oldest first); undefined when there is none. */
  const previousOf = async (current: GetDatasetStatisticsResponse, filter: { countryCodes?: string[]; provinces?: string[] }) => {
    const { versions } = await deps.statistics.history({
      limit: HISTORY_VERSIONS,
      countryCodes: filter.countryCodes ?? [],
      provinces: filter.provinces ?? [],
    });
    const at = versions.findIndex((version) => version.version === current.version);
    const before: DatasetVersionStatistics[] =
      at >= 0 ? versions.slice(0, at) : versions.filter((version) => (version.builtAt ?? 0) < (current.builtAt ?? 0));
    return before.at(-1);
  };
  const provinceOf = (current: GetDatasetStatisticsResponse, text: string | undefined) => {
    if (text === undefined) return undefined;
    const found = findProvince(current.provinces, text);
    if (found === undefined) throw new FaceAError(CODE.badInput, BAD_PROVINCE);
    return found;
  };
  const historyRows = (versions: readonly DatasetVersionStatistics[], pick: (version: DatasetVersionStatistics) => unknown) =>
    versions.map((version) => ({ ...versionView(version), ...(pick(version) as object) }));

  return [
    defineCall({
      ...call('global_ip_total'),
      input: {},
      handle: async () => {
        const current = await deps.statistics.current();
        return {
          data: {
            ...versionView(current),
            addresses: countsView(current.total),
            china: countsView(current.chinaTotal),
            unlocated: countsView(current.unlocated),
            countries: current.countries.length,
            idc_organizations: current.idcOrganizations,
          },
        };
      },
    }),
    defineCall({
      ...call('global_country_count'),
      input: { country, page, page_size: pageSize(50, 300) },
      handle: async (_context, input) => {
        const current = await deps.statistics.current();
        const code = input.country?.toUpperCase();
        const rows = current.countries.filter((row) => code === undefined || row.countryCode === code).map(countryRow);
        return {
          data: { ...versionView(current), addresses: countsView(current.total), ...pageOf(rows, input.page, input.page_size) },
        };
      },
    }),
    defineCall({
      ...call('global_country_update'),
      input: { country, page, page_size: pageSize(50, 300) },
      handle: async (_context, input) => {
        const current = await deps.statistics.current();
        const code = input.country?.toUpperCase();
        const previous = await previousOf(current, { countryCodes: code === undefined ? [] : [code] });
        const mine = current.countries.filter((row) => code === undefined || row.countryCode === code);
        const rows = changedRows(mine, previous?.countries, (row) => row.countryCode, countryRow);
        return {
          data: {
            ...versionView(current),
            previous: versionView(previous),
            addresses: { ...countsView(current.total), ...change(current.total, previous?.total, previous) },
            ...pageOf(rows, input.page, input.page_size),
          },
        };
      },
    }),
    defineCall({
      ...call('china_province_count'),
      input: { province },
      handle: async (_context, input) => {
        const current = await deps.statistics.current();
        const only = provinceOf(current, input.province);
        const rows = current.provinces.filter((row) => only === undefined || row.code === only.code).map(provinceRow);
        return {
          data: {
            ...versionView(current),
            addresses: countsView(current.chinaTotal),
            unattributed: countsView(current.chinaUnattributed),
            list: rows,
          },
        };
      },
    }),
    defineCall({
      ...call('china_province_update'),
      input: { province },
      handle: async (_context, input) => {
        const current = await deps.statistics.current();
        const only = provinceOf(current, input.province);
        const previous = await previousOf(current, { provinces: only === undefined ? [] : [only.code] });
        const mine = current.provinces.filter((row) => only === undefined || row.code === only.code);
        return {
          data: {
            ...versionView(current),
            previous: versionView(previous),
            addresses: { ...countsView(current.chinaTotal), ...change(current.chinaTotal, previous?.chinaTotal, previous) },
            list: changedRows(mine, previous?.provinces, (row) => row.code, provinceRow),
          },
        };
      },
    }),
    defineCall({
      ...call('get_areas'),
      input: {},
      handle: async () => {
        const current = await deps.statistics.current();
        return {
          data: {
            version: current.version,
            countries: current.countries.map((row) => ({
              country_code: row.countryCode,
              name: countryName(row.countryCode, row.nameZh, row.nameEn),
              name_en: row.nameEn ?? null,
            })),
            provinces: current.provinces.map((row) => ({
              code: row.code,
              name: row.name,
              short_name: row.shortName,
              name_en: row.nameEn,
            })),
          },
        };
      },
    }),
    defineCall({
      ...call('idc_list'),
      input: { province, page, page_size: pageSize(20, 100) },
      handle: async (_context, input) => {
        const answer = await deps.statistics
          .idcOrganizations({ province: input.province ?? '', page: input.page - 1, pageSize: input.page_size })
          .catch((failure: unknown) => {
            // The engine knows the divisions; an unknown one is the visitor's mistake.
            if (failure instanceof InvalidArgumentError) throw new FaceAError(CODE.badInput, BAD_PROVINCE);
            throw failure;
          });
        return {
          data: {
            version: answer.version,
            province: answer.province === undefined ? null : provinceRow(answer.province),
            list: answer.organizations.map(idcRow),
            page: input.page,
            page_size: input.page_size,
            total: answer.total,
          },
        };
      },
    }),
    defineCall({
      ...call('idc_prov_list'),
      input: {},
      handle: async () => {
        const current = await deps.statistics.current();
        const rows = current.provinces
          .filter((row) => row.idcOrganizations > 0)
          .sort((a, b) => b.idcOrganizations - a.idcOrganizations || (a.code < b.code ? -1 : 1))
          .map(provinceRow);
        return { data: { version: current.version, idc_organizations: current.idcOrganizations, list: rows } };
      },
    }),
    defineCall({
      ...call('global_country_trend'),
      input: { country, days },
      handle: async (_context, input) => {
        const code = input.country?.toUpperCase();
        const range = { ...dayRange(now(), input.days), limit: 0 };
        const [trend, history] = await Promise.all([
          deps.trends.countries(range),
          deps.statistics.history({ limit: HISTORY_VERSIONS, countryCodes: code === undefined ? [] : [code], provinces: [] }),
        ]);
        const lookups = trendDays(range, trend, {
          keep: (key) => code === undefined || key === code,
          name: (key) => countryName(key),
          top: TREND_TOP,
        });
        const dataset = historyRows(history.versions, (version) =>
          countsView(code === undefined ? version.total : version.countries.find((row) => row.countryCode === code)?.addresses),
        );
        return {
          data: { country: code === undefined ? null : { country_code: code, name: countryName(code) }, lookups, dataset },
        };
      },
    }),
    defineCall({
      ...call('china_province_trend'),
      input: { province, days },
      handle: async (_context, input) => {
        const only = input.province === undefined ? undefined : provinceOf(await deps.statistics.current(), input.province);
        const range = { ...dayRange(now(), input.days), limit: 0 };
        const [trend, history] = await Promise.all([
          deps.trends.provinces(range),
          deps.statistics.history({
            limit: HISTORY_VERSIONS,
            countryCodes: [],
            provinces: only === undefined ? [] : [only.code],
          }),
        ]);
        // Usage events carry the dataset's (qqwry's) province name, mostly the short name ("广东").
        const lookups = trendDays(range, trend, {
          keep: (key) => only === undefined || key === only.shortName || key === only.name,
          name: (key) => key,
          top: TREND_TOP,
        });
        const dataset = historyRows(history.versions, (version) =>
          countsView(
            only === undefined ? version.chinaTotal : version.provinces.find((row) => row.code === only.code)?.addresses,
          ),
        );
        return {
          data: {
            province: only === undefined ? null : { code: only.code, name: only.name, short_name: only.shortName },
            lookups,
            dataset,
          },
        };
      },
    }),
    ...['search_count', 'search_count_new'].map((name) =>
      defineCall({
        ...call(name),
        input: { days },
        handle: async (_context, input) => {
          const range = { ...dayRange(now(), input.days), limit: 0 };
          const trend = await deps.trends.endpoints(range);
          return { data: trendDays(range, trend, { keep: () => true, name: (key) => key, top: 50 }) };
        },
      }),
    ),
  ];
}

function change(current: Parameters<typeof countsChange>[0], previous: Parameters<typeof countsChange>[1], version: unknown) {
  return version === undefined ? { ipv4_change: null, ipv6_change: null } : countsChange(current, previous);
}
