// Shapes of face A's answers, as services/bff-cn/openapi/face-a.yaml declares them (snake_case,
// as the server sends them). Only the calls the app uses so far; more come with their pages.

export interface User {
  id: string;
  phone: string;
  name: string;
  display_name: string;
  channel: 'phone' | 'email' | 'unknown';
  auth: string[];
  pay_service: string[];
  partner: boolean;
  company_name: string;
  created_at: string | null;
}

export interface SignedIn {
  token: string;
  expires_at: string | null;
  user: User;
}

export interface UserInfo {
  user: User;
  /** null when content is unavailable */
  unread: number | null;
}

export interface SmsSent {
  resend_after_seconds: number;
  expires_in_seconds: number;
}

export interface Notice {
  id: string;
  title: string;
  body: string;
  link: string;
  published_at: string | null;
}

export interface ContactItem {
  name: string;
  value: string;
}

export const CONTACT_KINDS = ['phone', 'email', 'qq', 'qq_code', 'wx_code'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];
export type Contacts = Record<ContactKind, ContactItem[]>;

export interface WebInit extends Record<ContactKind, string> {
  site_name: string;
  notices: Notice[];
  news_products: string[];
  plat: 'pc' | 'wap';
  server_time: string;
}

export interface IpView {
  ip: string;
  country: string | null;
  province: string | null;
  city: string | null;
  isp: string | null;
  area: string;
  country_code: string | null;
  country_en: string | null;
  region_en: string | null;
  city_en: string | null;
  latitude: number | null;
  longitude: number | null;
  zip_code: string | null;
  time_zone: string | null;
  utc_offset: string | null;
  calling_code: string | null;
  currency_code: string | null;
  asn: number | null;
  asn_name: string | null;
  organization: string | null;
  network: string | null;
  start_ip: string | null;
  end_ip: string | null;
  is_proxy: boolean;
  proxy: {
    is_vpn: boolean;
    is_tor: boolean;
    is_data_center: boolean;
    is_proxy: boolean;
    is_relay: boolean;
    is_hosting: boolean;
  };
  reserved: boolean;
}
