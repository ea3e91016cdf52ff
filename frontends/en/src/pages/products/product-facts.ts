import type { Product } from '../../routes/products.js';

export interface FieldFact {
  name: string;
  text: string;
}

export interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
  /** The docs page's section id (the public OpenAPI document's operationId). */
  operationId: string;
  text: string;
}

export interface ProductFacts {
  /** The API page's opening line. */
  apiLead: string;
  /** What the API answers: the IP info result's members of spec section 3 this product is about. */
  answers: readonly FieldFact[];
  endpoints: readonly Endpoint[];
  /** The address of the live example (a well-known one whose answer shows the product's fields). */
  exampleIp: string;
  /** The members of the lookup's answer the example shows (the whole answer for geolocation). */
  exampleMembers: readonly string[] | 'all';
  /** The database page's opening line, and the columns of its CSV file. */
  databaseLead: string;
  columns: readonly FieldFact[];
}

const IP_RANGE: readonly FieldFact[] = [
  { name: 'start_ip', text: 'First address of the range' },
  { name: 'end_ip', text: 'Last address of the range' },
];

/** The facts each product page shows (spec section 3's fields, the public API's operations). */
export const PRODUCT_FACTS: Record<Product, ProductFacts> = {
  geolocation: {
    apiLead:
      'Where an IPv4 or IPv6 address is: country, region, city, coordinates, postal code, time zone, currency and calling code, with the network that announces it.',
    answers: [
      { name: 'ip', text: 'The address looked up' },
      { name: 'country_code, country_name', text: 'ISO 3166 country code and English name' },
      { name: 'country_capital, calling_code, country_flag, is_eu', text: 'Facts about the country' },
      { name: 'region_name, city_name, zip_code', text: 'Region (state, province), city and postal code' },
      { name: 'latitude, longitude', text: 'Approximate centre of the area' },
      {
        name: 'weather_station_code, weather_station_name, elevation',
        text: 'Nearest weather station and elevation, where known',
      },
      { name: 'time_zone', text: 'name, offset and current_time' },
      { name: 'currency', text: 'code, name and symbol' },
      { name: 'asn', text: 'asn, asn_name, domain, usage_type, isp, organization' },
      { name: 'is_proxy, proxy_data', text: 'Privacy flags (see the privacy detection API)' },
      { name: 'start_ip, end_ip', text: 'The range the address belongs to' },
    ],
    endpoints: [
      { method: 'GET', path: '/v1/ip/{ip}', operationId: 'getIp', text: 'Everything about one address' },
      { method: 'GET', path: '/v1/ip', operationId: 'getOwnIp', text: 'The calling address itself' },
      { method: 'GET', path: '/v1/ip/{ip}/{field}', operationId: 'getIpField', text: 'One field only, as plain text' },
      { method: 'POST', path: '/v1/batch', operationId: 'postBatch', text: 'Many addresses in one request' },
    ],
    exampleIp: '131.111.8.46',
    exampleMembers: 'all',
    databaseLead:
      'Every routed IPv4 and IPv6 range with its country, region, city, postal code, coordinates and time zone, to look addresses up on your own servers.',
    columns: [
      ...IP_RANGE,
      { name: 'country_code, country_name', text: 'ISO 3166 country code and English name' },
      { name: 'region_name, city_name, zip_code', text: 'Region, city and postal code' },
      { name: 'latitude, longitude', text: 'Approximate centre of the area' },
      { name: 'time_zone', text: 'IANA time zone name' },
      { name: 'continent_code, is_eu', text: 'Continent and EU membership' },
    ],
  },
  privacy: {
    apiLead:
      'Whether traffic from an address hides where it comes from: VPN exits, Tor exit nodes, data centers, open proxies, relays and hosting providers.',
    answers: [
      { name: 'ip', text: 'The address looked up' },
      { name: 'is_proxy', text: 'True when any of the flags below is true' },
      { name: 'proxy_data.is_vpn', text: 'A VPN service’s exit address' },
      { name: 'proxy_data.is_tor', text: 'A Tor exit node' },
      { name: 'proxy_data.is_data_center', text: 'An address of a data center' },
      { name: 'proxy_data.is_proxy', text: 'A known open or commercial proxy' },
      { name: 'proxy_data.is_relay', text: 'A relay service (for example a private relay)' },
      { name: 'proxy_data.is_hosting', text: 'A hosting or cloud provider’s network' },
    ],
    endpoints: [
      { method: 'GET', path: '/v1/privacy/{ip}', operationId: 'getPrivacy', text: 'The privacy flags of one address' },
      { method: 'GET', path: '/v1/ip/{ip}', operationId: 'getIp', text: 'The flags together with the location' },
    ],
    exampleIp: '159.89.0.1',
    exampleMembers: ['ip', 'is_proxy', 'proxy_data'],
    databaseLead:
      'The ranges of VPN exits, Tor exit nodes, data centers, proxies, relays and hosting networks, with the rule that flagged each one.',
    columns: [
      ...IP_RANGE,
      { name: 'is_vpn, is_tor, is_data_center', text: 'VPN exit, Tor exit node, data center' },
      { name: 'is_proxy, is_relay, is_hosting', text: 'Proxy, relay service, hosting network' },
      { name: 'privacy_rule', text: 'Why the range is flagged (for example hosting-asn)' },
    ],
  },
  asn: {
    apiLead:
      'The autonomous system behind an address or an AS number: its name, the organisation that runs it, how it is used and the prefixes it announces.',
    answers: [
      { name: 'asn.asn', text: 'The AS number' },
      { name: 'asn.asn_name', text: 'The AS name' },
      { name: 'asn.organization, asn.isp', text: 'The organisation running it and its ISP' },
      { name: 'asn.domain', text: 'The organisation’s domain, where known' },
      { name: 'asn.usage_type', text: 'How the network is used (for example DCH for data center / hosting)' },
      { name: 'prefixes (GET /v1/asn)', text: 'The announced IPv4 and IPv6 prefixes, page by page' },
    ],
    endpoints: [
      { method: 'GET', path: '/v1/asn/{asn}', operationId: 'getAsn', text: 'An AS and its announced prefixes' },
      { method: 'GET', path: '/v1/ip/{ip}', operationId: 'getIp', text: 'The AS of one address (the asn object)' },
    ],
    exampleIp: '8.8.8.8',
    exampleMembers: ['ip', 'asn'],
    databaseLead:
      'Every announced IPv4 and IPv6 range with the AS number, name and organisation behind it, and how the network is used.',
    columns: [
      ...IP_RANGE,
      { name: 'asn, asn_name', text: 'AS number and name' },
      { name: 'organization', text: 'The organisation running it' },
      { name: 'usage_type', text: 'How the network is used, where known' },
    ],
  },
};

/** The members of an answer the example shows, in the answer's order. */
export function exampleOf(answer: Record<string, unknown>, members: ProductFacts['exampleMembers']): Record<string, unknown> {
  if (members === 'all') return answer;
  return Object.fromEntries(Object.entries(answer).filter(([name]) => members.includes(name)));
}
