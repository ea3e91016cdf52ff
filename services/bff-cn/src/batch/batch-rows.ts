import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { ipView } from '../lookups/ip-view.js';

/** One line of a batch as the xlsx shows it; `null` cells stay empty (never invented). */
export interface BatchRow {
  /** The line as the visitor wrote it (trimmed). */
  ip: string;
  country: string | null;
  province: string | null;
  city: string | null;
  isp: string | null;
  asn: number | null;
  longitude: number | null;
  latitude: number | null;
  /** Empty for an answered address; otherwise why the row has no location (无效的 IP 地址, 局域网, ...). */
  note: string;
}

/** The xlsx columns in order: title, the BatchRow field (序号 is the row's position), width. */
export const BATCH_COLUMNS: ReadonlyArray<{ title: string; key: keyof BatchRow | 'n'; width: number }> = [
  { title: '序号', key: 'n', width: 8 },
  { title: 'IP', key: 'ip', width: 40 },
  { title: '国家', key: 'country', width: 14 },
  { title: '省份', key: 'province', width: 14 },
  { title: '城市', key: 'city', width: 14 },
  { title: '运营商', key: 'isp', width: 24 },
  { title: 'ASN', key: 'asn', width: 10 },
  { title: '经度', key: 'longitude', width: 12 },
  { title: '纬度', key: 'latitude', width: 12 },
  { title: '备注', key: 'note', width: 22 },
];

export const INVALID_NOTE = '无效的 IP 地址';
export const NOT_FOUND_NOTE = '未找到位置信息';

/** A line that is not exactly one IP address: kept in its place, marked. */
export function invalidRow(line: string): BatchRow {
  return {
    ip: line,
    country: null,
    province: null,
    city: null,
    isp: null,
    asn: null,
    longitude: null,
    latitude: null,
    note: INVALID_NOTE,
  };
}

/**
 * A looked-up (or reserved) address through IpView, so a batch row says what the single lookup
 * says: Chinese names first, reserved addresses named as the page names them (局域网, 本机地址...).
 */
export function infoRow(line: string, info: IpInfo): BatchRow {
  const view = ipView(info);
  const note =
    info.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED ? view.area : view.country === null ? NOT_FOUND_NOTE : '';
  return {
    ip: line,
    country: view.country,
    province: view.province,
    city: view.city,
    isp: view.isp,
    asn: view.asn,
    longitude: rounded(view.longitude),
    latitude: rounded(view.latitude),
    note,
  };
}

/** Coordinates travel as float32: 4 decimals (about 10 m) show what the dataset knows without float noise. */
function rounded(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10_000) / 10_000;
}

/** A reserved address answered without the engine, as FaceALookups does. */
export function reservedRow(line: string, canonical: string, reserved: ReservedReason): BatchRow {
  return infoRow(line, IpInfo.fromPartial({ ip: canonical, reserved }));
}

const FIELDS = ['ip', 'country', 'province', 'city', 'isp', 'asn', 'longitude', 'latitude', 'note'] as const;

/** The row as the job's result line: a JSON array (no line break: JSON escapes them). */
export function encodeRow(row: BatchRow): string {
  return JSON.stringify(FIELDS.map((field) => row[field]));
}

export function decodeRow(line: string): BatchRow {
  const cells = JSON.parse(line) as unknown[];
  const text = (i: number): string | null => (typeof cells[i] === 'string' ? cells[i] : null);
  const num = (i: number): number | null => (typeof cells[i] === 'number' ? cells[i] : null);
  return {
    ip: text(0) ?? '',
    country: text(1),
    province: text(2),
    city: text(3),
    isp: text(4),
    asn: num(5),
    longitude: num(6),
    latitude: num(7),
    note: text(8) ?? '',
  };
}
