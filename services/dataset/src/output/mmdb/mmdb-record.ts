import { FLAG, type DatasetRecord } from '../../format/index.js';
import { float32Text } from '../table-writer.js';
import { uint32, type MmdbValue } from './mmdb-data.js';

type MmdbMap = { [key: string]: MmdbValue };

/** The record languages of the edition (metadata `languages`). */
export const MMDB_LANGUAGES = ['en', 'zh-CN'] as const;

/**
 * Chinese (zh-CN) country names from Node's ICU, whose version is part of the dataset version.
 * null when ICU has no name for the code (it then echoes the code back).
 */
export function icuCountryNames(): (code: string) => string | null {
  const names = new Intl.DisplayNames(['zh-CN'], { type: 'region', fallback: 'code' });
  const cache = new Map<string, string | null>();
  return (code) => {
    let name = cache.get(code);
    if (name === undefined) {
      let found: string | undefined;
      try {
        found = names.of(code);
      } catch {
        found = undefined;
      }
      name = found === undefined || found === code ? null : found;
      cache.set(code, name);
    }
    return name;
  };
}

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value !== '';

/** Adds `key: value` when the value is present (absent fields are omitted, never invented). */
function put(map: MmdbMap, key: string, value: MmdbValue | null | undefined): void {
  if (value === null || value === undefined || value === '') return;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return;
  map[key] = value;
}

function names(en: string | null | undefined, zh?: string | null): MmdbMap {
  const map: MmdbMap = {};
  put(map, 'en', en);
  put(map, 'zh-CN', zh);
  return map;
}

/**
 * Maps dataset records to the MMDB edition's maps (services/dataset/README.md, "MMDB edition"):
 * GeoIP2-City keys where a field maps (continent, country, subdivisions, city, postal,
 * location, traits), GeoLite2-ASN's autonomous_system_* keys, and our own `privacy`,
 * `usage_type` and `zh`. Absent fields are omitted, never invented.
 *
 * Equal parts (a country, a city, a location, an ASN...) come back as the same object, so the
 * data section writer stores each once and points at it (it deduplicates containers by
 * identity, no serialising to compare), and `key` identifies a whole map by its parts.
 */
export class MmdbRecordMapper {
  /** Per part name, nested maps keyed by the part's fields (existing strings and numbers hash fast). */
  private readonly roots = new Map<string, Map<unknown, unknown>>();
  private parts = 0;
  // Per-record scratch (the mapper runs once per record: no closures allocated per call).
  private out: MmdbMap = {};
  private key = '';
  private pendingKey = '';
  private pendingLevel: Map<unknown, unknown> | null = null;
  private pendingLast: unknown = null;

  constructor(private readonly zhCountryName: (code: string) => string | null) {}

  /** The record's map and a key equal for equal maps; null when nothing maps (no data there). */
  map(record: DatasetRecord): { value: MmdbMap; key: string } | null {
    const { fields: f, flags, asn, latitude, longitude } = record;
    this.out = {};
    this.key = '';

    const code = f.continent_code;
    if (present(code) && !this.part('continent', 1, code)) this.add({ code });
    const iso = f.country_code;
    if (present(iso)) {
      const eu = (flags & FLAG.isEuKnown) === 0 ? '' : (flags & FLAG.isEu) !== 0 ? '1' : '0';
      if (!this.part('country', 3, iso, f.country_name, eu)) this.add(this.country(iso, f.country_name, eu));
    }
    const region = f.region_name;
    if (present(region) && !this.part('subdivisions', 1, region)) this.add([{ names: names(region) }]);
    const city = f.city_name;
    if (present(city) && !this.part('city', 1, city)) this.add({ names: names(city) });
    const zip = f.zip_code;
    if (present(zip) && !this.part('postal', 1, zip)) this.add({ code: zip });
    const timeZone = f.time_zone;
    if (latitude !== null || longitude !== null || present(timeZone)) {
      if (!this.part('location', 3, latitude, longitude, timeZone)) this.add(location(latitude, longitude, timeZone));
    }
    const organization = asn === null ? null : f.organization;
    if (asn !== null) {
      if (!this.part('autonomous_system_number', 1, asn)) this.add(uint32(asn));
      if (present(organization) && !this.part('autonomous_system_organization', 1, organization)) this.add(organization);
    }
    const traitFlags = flags & TRAIT_FLAGS;
    if (asn !== null || traitFlags !== 0) {
      if (!this.part('traits', 3, asn, organization, traitFlags)) this.add(traits(asn, organization, flags));
    }
    const privacyFlags = flags & PRIVACY_FLAGS;
    if (privacyFlags !== 0) {
      if (!this.part('privacy', 2, privacyFlags, f.privacy_rule)) this.add(privacy(flags, f.privacy_rule));
    }
    const usage = f.usage_type;
    if (present(usage) && !this.part('usage_type', 1, usage)) this.add(usage);
    if (present(f.zh_country) || present(f.zh_province) || present(f.zh_city) || present(f.zh_isp)) {
      if (!this.part('zh', 4, f.zh_country, f.zh_province, f.zh_city, f.zh_isp))
        this.add(zhNames(f.zh_country, f.zh_province, f.zh_city, f.zh_isp));
    }
    return this.key === '' ? null : { value: this.out, key: this.key };
  }

  /**
   * Puts the shared part for these field values (1 to 4 of them; fixed parameters, so nothing is
   * allocated per call) into the map; false when it is new (then call add).
   */
  private part(key: string, count: 1 | 2 | 3 | 4, a: unknown, b?: unknown, c?: unknown, d?: unknown): boolean {
    let level = this.roots.get(key);
    if (level === undefined) {
      level = new Map();
      this.roots.set(key, level);
    }
    if (count > 1) level = this.level(level, a);
    if (count > 2) level = this.level(level, b);
    if (count > 3) level = this.level(level, c);
    const last = (count === 1 ? a : count === 2 ? b : count === 3 ? c : d) ?? null;
    const entry = level.get(last) as { value: MmdbValue; id: number } | undefined;
    if (entry === undefined) {
      this.pendingKey = key;
      this.pendingLevel = level;
      this.pendingLast = last;
      return false;
    }
    this.out[key] = entry.value;
    this.appendId(entry.id);
    return true;
  }

  private level(map: Map<unknown, unknown>, field: unknown): Map<unknown, unknown> {
    const key = field ?? null;
    let next = map.get(key) as Map<unknown, unknown> | undefined;
    if (next === undefined) {
      next = new Map();
      map.set(key, next);
    }
    return next;
  }

  /** The record key: each part id as two UTF-16 code units (ids stay below 2^32). */
  private appendId(id: number): void {
    this.key += String.fromCharCode(id >>> 16, id & 0xffff);
  }

  private add(value: MmdbValue): void {
    const entry = { value, id: this.parts++ };
    this.pendingLevel?.set(this.pendingLast, entry);
    this.out[this.pendingKey] = value;
    this.appendId(entry.id);
  }

  private country(iso: string, name: string | null | undefined, eu: string): MmdbMap {
    const country: MmdbMap = { iso_code: iso };
    put(country, 'names', names(name, this.zhCountryName(iso)));
    if (eu !== '') country.is_in_european_union = eu === '1';
    return country;
  }
}

function location(latitude: number | null, longitude: number | null, timeZone: string | null | undefined): MmdbMap {
  const map: MmdbMap = {};
  // Float32 in the dataset; written as the double of their shortest text (as in the CSV).
  put(map, 'latitude', latitude === null ? null : Number(float32Text(latitude)));
  put(map, 'longitude', longitude === null ? null : Number(float32Text(longitude)));
  put(map, 'time_zone', timeZone);
  return map;
}

/** GeoIP2's traits: the ASN, and its anonymizer flags written only when true, as GeoIP2 does. */
function traits(asn: number | null, organization: string | null | undefined, flags: number): MmdbMap {
  const map: MmdbMap = {};
  if (asn !== null) {
    map.autonomous_system_number = uint32(asn);
    put(map, 'autonomous_system_organization', organization);
  }
  if ((flags & FLAG.isVpn) !== 0) map.is_anonymous_vpn = true;
  if ((flags & FLAG.isHosting) !== 0) map.is_hosting_provider = true;
  if ((flags & FLAG.isProxy) !== 0) map.is_public_proxy = true;
  if ((flags & FLAG.isTor) !== 0) map.is_tor_exit_node = true;
  return map;
}

function privacy(flags: number, rule: string | null | undefined): MmdbMap {
  const map: MmdbMap = {
    is_vpn: (flags & FLAG.isVpn) !== 0,
    is_tor: (flags & FLAG.isTor) !== 0,
    is_data_center: (flags & FLAG.isDataCenter) !== 0,
    is_proxy: (flags & FLAG.isProxy) !== 0,
    is_relay: (flags & FLAG.isRelay) !== 0,
    is_hosting: (flags & FLAG.isHosting) !== 0,
  };
  put(map, 'rule', rule);
  return map;
}

function zhNames(...[country, province, city, isp]: Array<string | null | undefined>): MmdbMap {
  const map: MmdbMap = {};
  put(map, 'country', country);
  put(map, 'province', province);
  put(map, 'city', city);
  put(map, 'isp', isp);
  return map;
}

const TRAIT_FLAGS = FLAG.isVpn | FLAG.isHosting | FLAG.isProxy | FLAG.isTor;
const PRIVACY_FLAGS = FLAG.isVpn | FLAG.isTor | FLAG.isDataCenter | FLAG.isProxy | FLAG.isRelay | FLAG.isHosting;
