import { parseIpv4, parseIpv6 } from '../ip/parse-ip.js';

/**
 * The PTR question name of an address: `4.3.2.1.in-addr.arpa`, or the 32 reversed nibbles of an
 * IPv6 address under `ip6.arpa`; `undefined` for what is not an address. The resolver asks for
 * PTR records of this name itself instead of c-ares' getHostByAddr, which reports a timeout as
 * ENOTFOUND (measured), so a silent server would look like "no name".
 */
export function reverseName(address: string): string | undefined {
  if (address.includes(':')) {
    const words = new Uint32Array(4);
    if (!parseIpv6(address, words)) return undefined;
    const nibbles = [...words].map((word) => word.toString(16).padStart(8, '0')).join('');
    return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
  }
  const value = parseIpv4(address);
  if (value < 0) return undefined;
  return `${[24, 16, 8, 0]
    .map((shift) => (value >>> shift) & 0xff)
    .reverse()
    .join('.')}.in-addr.arpa`;
}
