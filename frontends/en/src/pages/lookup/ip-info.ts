// The lookup tool's answer, read for people: the IP info result of spec section 3 (the public
// API's IpInfo, which the web API's lookup returns item by item) grouped the way a visitor scans
// it, each value formatted and tagged with its JSON path.
import type { components } from '../../api/generated/public-api.openapi.js';

type Schemas = components['schemas'];
export type ReservedWord = NonNullable<Schemas['ReservedWord']>;

/**
 * One answer as bff-en sends it: the public API's IpInfo (services/bff-en/openapi/public-api.yaml),
 * whose types are generated; the web API's schema only sketches the nested objects. Every member
 * is read defensively (null when unknown).
 */
export type IpInfoView = Schemas['IpInfo'];

/** Shown for a member without a value (null): the row stays, so every answer reads the same. */
export const UNKNOWN = '—';

type Format = 'text' | 'yesNo' | 'asn' | 'time' | 'coordinate';

interface FieldSpec {
  /** The member's JSON path (`country_name`, `asn.asn`): the row's `data-field`. */
  path: string;
  label: string;
  format?: Format;
}

export interface FieldGroup {
  title: string;
  fields: readonly FieldSpec[];
}

/** Spec section 3's members in the groups of the card, in the spec's order within each. */
export const FIELD_GROUPS: readonly FieldGroup[] = [
  {
    title: 'Location',
    fields: [
      { path: 'country_name', label: 'Country' },
      { path: 'country_code', label: 'Country code' },
      { path: 'country_flag', label: 'Flag' },
      { path: 'country_capital', label: 'Capital' },
      { path: 'region_name', label: 'Region' },
      { path: 'city_name', label: 'City' },
      { path: 'zip_code', label: 'ZIP code' },
      { path: 'latitude', label: 'Latitude', format: 'coordinate' },
      { path: 'longitude', label: 'Longitude', format: 'coordinate' },
      { path: 'is_eu', label: 'In the EU', format: 'yesNo' },
      { path: 'calling_code', label: 'Calling code' },
      { path: 'weather_station_code', label: 'Weather station code' },
      { path: 'weather_station_name', label: 'Weather station' },
      { path: 'elevation', label: 'Elevation (m)' },
    ],
  },
  {
    title: 'Network',
    fields: [
      { path: 'network', label: 'Network (CIDR)' },
      { path: 'start_ip', label: 'Range start' },
      { path: 'end_ip', label: 'Range end' },
    ],
  },
  {
    title: 'ASN',
    fields: [
      { path: 'asn.asn', label: 'AS number', format: 'asn' },
      { path: 'asn.asn_name', label: 'AS name' },
      { path: 'asn.organization', label: 'Organization' },
      { path: 'asn.isp', label: 'ISP' },
      { path: 'asn.domain', label: 'Domain' },
      { path: 'asn.usage_type', label: 'Usage type' },
    ],
  },
  {
    title: 'Time zone',
    fields: [
      { path: 'time_zone.name', label: 'Time zone' },
      { path: 'time_zone.offset', label: 'UTC offset' },
      { path: 'time_zone.current_time', label: 'Local time', format: 'time' },
    ],
  },
  {
    title: 'Currency',
    fields: [
      { path: 'currency.code', label: 'Code' },
      { path: 'currency.name', label: 'Name' },
      { path: 'currency.symbol', label: 'Symbol' },
    ],
  },
  {
    title: 'Privacy',
    fields: [
      { path: 'is_proxy', label: 'Flagged (any below)', format: 'yesNo' },
      { path: 'proxy_data.is_vpn', label: 'VPN', format: 'yesNo' },
      { path: 'proxy_data.is_tor', label: 'Tor', format: 'yesNo' },
      { path: 'proxy_data.is_data_center', label: 'Data center', format: 'yesNo' },
      { path: 'proxy_data.is_proxy', label: 'Proxy', format: 'yesNo' },
      { path: 'proxy_data.is_relay', label: 'Relay', format: 'yesNo' },
      { path: 'proxy_data.is_hosting', label: 'Hosting', format: 'yesNo' },
    ],
  },
];

/** The member at a dot-path, or undefined when a parent is null or missing. */
export function valueAt(info: IpInfoView, path: string): unknown {
  let current: unknown = info;
  for (const name of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

/** `2026-01-10T06:00:00-05:00` → `2026-01-10 06:00:00`: the place's wall-clock time, as sent (no conversion to the visitor's zone). */
function wallClock(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)/.exec(iso);
  return match ? `${match[1]} ${match[2]}` : iso;
}

function plain(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

export function formatValue(value: unknown, format: Format = 'text'): string {
  if (value === null || value === undefined || value === '') return UNKNOWN;
  if (format === 'yesNo' && typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (format === 'asn') return `AS${plain(value)}`;
  if (format === 'time' && typeof value === 'string') return wallClock(value);
  if (format === 'coordinate' && typeof value === 'number') return value.toFixed(4);
  return plain(value);
}

export interface FieldRow {
  path: string;
  label: string;
  text: string;
}

/** A group's rows with their display text. */
export function groupRows(info: IpInfoView, group: FieldGroup): FieldRow[] {
  return group.fields.map((field) => ({
    path: field.path,
    label: field.label,
    text: formatValue(valueAt(info, field.path), field.format),
  }));
}

const RESERVED_NAMES: Record<ReservedWord, string> = {
  private: 'a private address (for use inside a local network)',
  loopback: 'a loopback address (the machine itself)',
  link_local: 'a link-local address (valid on one network segment only)',
  multicast: 'a multicast address',
  documentation: 'an address reserved for documentation and examples',
  unspecified: 'the unspecified address',
  shared_address_space: 'a shared address (carrier-grade NAT)',
  benchmarking: 'an address reserved for benchmarking',
  broadcast: 'the broadcast address',
  other: 'a special-purpose address',
};

/** Why a reserved address has no location, in a sentence. */
export function reservedMessage(info: IpInfoView): string | null {
  if (!info.reserved) return null;
  const name = RESERVED_NAMES[info.reserved] ?? RESERVED_NAMES.other;
  return `${info.ip} is ${name}. Reserved addresses have no location, network owner or privacy data.`;
}

/** The map's pin, when the answer has coordinates. */
export function pinOf(info: IpInfoView): { name: string; latitude: number; longitude: number } | null {
  if (typeof info.latitude !== 'number' || typeof info.longitude !== 'number') return null;
  const place = [info.city_name, info.region_name, info.country_name].filter(Boolean).join(', ');
  return { name: place ? `${info.ip} (${place})` : info.ip, latitude: info.latitude, longitude: info.longitude };
}
