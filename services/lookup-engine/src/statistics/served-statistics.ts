import { InvalidArgumentError } from '@ipdata/common';
import {
  divisionByCode,
  resolveDivision,
  type AddressCount,
  type ChinaDivision,
  type DatasetStatistics,
} from '@ipdata/dataset/statistics';
import type {
  AddressCounts,
  CountryStatistics,
  DatasetVersionStatistics,
  GetDatasetStatisticsResponse,
  IdcOrganization,
  ProvinceStatistics,
} from '@ipdata/proto/lookup/v1/lookup';

const SLASH32 = 2 ** 96;

function counts({ ipv4, ipv6 }: AddressCount): AddressCounts {
  return { ipv4, ipv6, ipv6Slash32: Number(BigInt(ipv6)) / SLASH32 };
}

/** The division a caller names (code, name, short or English name); unknown → INVALID_ARGUMENT. */
export function divisionNamed(text: string): ChinaDivision {
  const division = resolveDivision(text);
  if (division === undefined) throw new InvalidArgumentError(`unknown province: ${text}`, { reason: 'unknown_province' });
  return division;
}

/**
 * One version's statistics.json turned into answer messages once, at load: calls only pick,
 * filter and page the prepared objects (treat them as read-only).
 */
export class ServedStatistics {
  readonly version: string;
  readonly builtAt: Date;
  readonly response: GetDatasetStatisticsResponse;
  readonly idc: readonly IdcOrganization[];
  /** IDC organisations with addresses in a division, by division code, in list order. */
  private readonly idcByDivision = new Map<string, IdcOrganization[]>();
  private readonly provinceByCode: Map<string, ProvinceStatistics>;

  constructor(statistics: DatasetStatistics) {
    this.version = statistics.datasetVersion;
    this.builtAt = new Date(statistics.builtAt);
    const provinces = statistics.china.provinces.flatMap((entry): ProvinceStatistics[] => {
      const division = divisionByCode(entry.code);
      if (division === undefined) return [];
      return [
        {
          code: division.code,
          name: division.name,
          shortName: division.shortName,
          nameEn: division.nameEn,
          addresses: counts(entry),
          idcOrganizations: entry.idcOrganizations,
        },
      ];
    });
    this.provinceByCode = new Map(provinces.map((province) => [province.code, province]));
    const countries = statistics.countries.map((country): CountryStatistics => ({
      countryCode: country.code,
      nameEn: country.nameEn ?? undefined,
      nameZh: country.nameZh ?? undefined,
      addresses: counts(country),
    }));
    this.idc = statistics.idc.map((organization): IdcOrganization => {
      const answer: IdcOrganization = {
        name: organization.name,
        nameZh: organization.nameZh ?? undefined,
        organization: organization.organization,
        asns: organization.asns,
        prefixCount: organization.prefixes,
        addresses: counts(organization),
        provinces: organization.provinces.map((province) => ({
          code: province.code,
          shortName: divisionByCode(province.code)?.shortName ?? province.code,
          addresses: counts(province),
        })),
      };
      for (const { code } of organization.provinces) {
        let list = this.idcByDivision.get(code);
        if (list === undefined) this.idcByDivision.set(code, (list = []));
        list.push(answer);
      }
      return answer;
    });
    this.response = {
      version: this.version,
      builtAt: this.builtAt,
      total: counts(statistics.total),
      unlocated: counts(statistics.unlocated),
      countries,
      chinaTotal: counts(statistics.china.total),
      chinaUnattributed: counts(statistics.china.unattributed),
      provinces,
      idcOrganizations: this.idc.length,
    };
  }

  /** IDC organisations, all or those of one division (by code). */
  idcOf(divisionCode: string | undefined): readonly IdcOrganization[] {
    return divisionCode === undefined ? this.idc : (this.idcByDivision.get(divisionCode) ?? []);
  }

  province(code: string): ProvinceStatistics | undefined {
    return this.provinceByCode.get(code);
  }

  /** The history entry: totals, and the countries and divisions asked for (all when a filter is empty). */
  versionEntry(countryCodes: ReadonlySet<string>, divisionCodes: ReadonlySet<string>): DatasetVersionStatistics {
    const { response } = this;
    return {
      version: this.version,
      builtAt: this.builtAt,
      total: response.total,
      chinaTotal: response.chinaTotal,
      countries: countryCodes.size === 0 ? response.countries : response.countries.filter((c) => countryCodes.has(c.countryCode)),
      provinces: divisionCodes.size === 0 ? response.provinces : response.provinces.filter((p) => divisionCodes.has(p.code)),
    };
  }
}
