export {
  CHINA_COUNTRY_CODES,
  CHINA_DIVISIONS,
  DIVISION_OF_COUNTRY,
  divisionByCode,
  mainlandDivisionOf,
  resolveDivision,
  type ChinaDivision,
} from './china-divisions.js';
export { computeStatistics } from './compute-statistics.js';
export {
  parseStatistics,
  STATISTICS_FILE,
  STATISTICS_FORMAT,
  StatisticsFormatError,
  type AddressCount,
  type CountryCount,
  type DatasetStatistics,
  type IdcOrganization,
  type ProvinceCount,
} from './statistics-file.js';
