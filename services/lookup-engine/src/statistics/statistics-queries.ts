import { InvalidArgumentError } from '@ipdata/common';
import type {
  ListDatasetStatisticsRequest,
  ListDatasetStatisticsResponse,
  ListIdcOrganizationsRequest,
  ListIdcOrganizationsResponse,
} from '@ipdata/proto/lookup/v1/lookup';
import { divisionNamed, type ServedStatistics } from './served-statistics.js';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1_000;
const DEFAULT_VERSIONS = 30;
const MAX_VERSIONS = 366;

/** A page of the IDC organisations, all or of one division (named as divisionNamed accepts). */
export function idcPage(served: ServedStatistics, request: ListIdcOrganizationsRequest): ListIdcOrganizationsResponse {
  const size = request.pageSize === 0 ? DEFAULT_PAGE_SIZE : request.pageSize;
  if (size > MAX_PAGE_SIZE)
    throw new InvalidArgumentError(`page_size must be at most ${MAX_PAGE_SIZE}`, { reason: 'page_too_large' });
  const division = request.province.trim() === '' ? undefined : divisionNamed(request.province);
  const matching = served.idcOf(division?.code);
  const from = request.page * size;
  return {
    version: served.version,
    organizations: matching.slice(from, from + size),
    page: request.page,
    pageSize: size,
    total: matching.length,
    province: division === undefined ? undefined : served.province(division.code),
  };
}

/** The newest `limit` versions of the history (oldest first), with only the countries and divisions asked for. */
export function historyPage(
  versions: readonly ServedStatistics[],
  request: ListDatasetStatisticsRequest,
): ListDatasetStatisticsResponse {
  const limit = request.limit === 0 ? DEFAULT_VERSIONS : request.limit;
  if (limit > MAX_VERSIONS)
    throw new InvalidArgumentError(`limit must be at most ${MAX_VERSIONS}`, { reason: 'limit_too_large' });
  const countries = new Set(
    request.countryCodes.map((code) => {
      const upper = code.trim().toUpperCase();
      if (!/^[A-Z]{2}$/.test(upper))
        throw new InvalidArgumentError(`not an ISO 3166-1 alpha-2 country code: ${code}`, { reason: 'invalid_country_code' });
      return upper;
    }),
  );
  const divisions = new Set(request.provinces.map((province) => divisionNamed(province).code));
  return { versions: versions.slice(-limit).map((served) => served.versionEntry(countries, divisions)) };
}
