import { domainToASCII } from 'node:url';

/**
 * The one set of domain-name rules of the project (bff-en's domain lookup, bff-cn's traceroute
 * targets, domain calls and WHOIS referrals). Pure: callers turn `undefined` into their own
 * message (bff-en 400 `invalid_domain`, bff-cn "请输入正确的域名").
 */
const MAX_NAME_LENGTH = 253;
const MAX_INPUT_LENGTH = 1024;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const NUMERIC = /^[0-9]+$/;
/**
 * ASCII other than letters, digits, '.', '-' and '_'. Checked before domainToASCII, which parses a
 * URL host: it cuts `example.com/path` at the slash, drops tabs and decodes `%2e`, so such input
 * would otherwise be answered for some other name.
 */
// eslint-disable-next-line no-control-regex -- control characters are among the refused ones
const FORBIDDEN_ASCII = /[\u0000-\u002c\u002f\u003a-\u0040\u005b-\u005e\u0060\u007b-\u007f]/;

/**
 * The ASCII form of a domain name (lower case, IDN labels as punycode, no trailing dot), or
 * `undefined` when the input is not one. Internationalised names are converted with the WHATWG
 * URL rules (domainToASCII, as a browser would); then the DNS rules: at most 253 characters,
 * labels of 1 to 63 letters, digits, hyphens (not at either end) or underscores, at least two
 * labels, and a top-level label that is not all digits, which is what refuses IP addresses
 * (domainToASCII turns `0x7f.1` into `127.0.0.1`).
 */
export function asciiDomainName(input: string): string | undefined {
  // Bounded before any work; a longer name cannot become valid.
  if (input.length > MAX_INPUT_LENGTH || FORBIDDEN_ASCII.test(input)) return undefined;
  const trimmed = input.endsWith('.') ? input.slice(0, -1) : input;
  const ascii = trimmed === '' ? '' : domainToASCII(trimmed);
  const labels = ascii.split('.');
  const valid =
    ascii !== '' &&
    ascii.length <= MAX_NAME_LENGTH &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    !NUMERIC.test(labels.at(-1) as string);
  return valid ? ascii : undefined;
}

/** Thrown by the resolver for a name `asciiDomainName` refuses; callers check first to word their own message. */
export class InvalidDomainNameError extends Error {
  constructor() {
    super('not a domain name');
    this.name = 'InvalidDomainNameError';
  }
}
