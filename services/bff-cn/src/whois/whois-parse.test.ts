import { describe, expect, it } from 'vitest';
import { domainFields, ipFields, parseWhoisServer, referralOf } from './whois-parse.js';

const STRICT = { allowIpLiterals: false, allowAnyPort: false };
const LAB = { allowIpLiterals: true, allowAnyPort: true };

describe('referralOf', () => {
  it('follows IANA refer:, Registrar WHOIS Server: and ReferralServer: whois://', () => {
    expect(referralOf('domain: COM\nrefer:        whois.verisign-grs.com\n', STRICT)).toEqual({
      host: 'whois.verisign-grs.com',
      port: 43,
    });
    expect(referralOf('   Registrar WHOIS Server: whois.markmonitor.com\r\n', STRICT)).toEqual({
      host: 'whois.markmonitor.com',
      port: 43,
    });
    expect(referralOf('ReferralServer:  whois://whois.apnic.net\n', STRICT)).toEqual({ host: 'whois.apnic.net', port: 43 });
  });

  it('refuses IP literals, other ports, rwhois/http and malformed hosts unless configured', () => {
    expect(referralOf('refer: 127.0.0.1\n', STRICT)).toBeUndefined();
    expect(referralOf('refer: whois.example.net:4343\n', STRICT)).toBeUndefined();
    expect(referralOf('ReferralServer: rwhois://rwhois.example.net:4321\n', STRICT)).toBeUndefined();
    expect(referralOf('Registrar WHOIS Server: https://whois.example.net\n', STRICT)).toBeUndefined();
    expect(referralOf('refer: evil host;rm\n', STRICT)).toBeUndefined();
    expect(referralOf('refer: 127.0.0.1:4343\n', LAB)).toEqual({ host: '127.0.0.1', port: 4343 });
    expect(parseWhoisServer('[::1]:43', LAB)).toEqual({ host: '::1', port: 43 });
    expect(parseWhoisServer('whois.iana.org', STRICT)).toEqual({ host: 'whois.iana.org', port: 43 });
  });
});

describe('fields', () => {
  it('reads gTLD and CNNIC domain labels', () => {
    expect(
      domainFields(
        'Sponsoring Registrar: 阿里云计算有限公司\nRegistration Time: 2003-03-17 12:20:05\nExpiration Time: 2027-03-17 12:48:36\nName Server: NS1.BAIDU.COM\nDomain Status: clientTransferProhibited\n',
      ),
    ).toEqual({
      registrar: '阿里云计算有限公司',
      creation_date: '2003-03-17 12:20:05',
      expiry_date: '2027-03-17 12:48:36',
      name_servers: ['ns1.baidu.com'],
      status: ['clientTransferProhibited'],
    });
  });

  it('reads ARIN and RIPE-style address labels, skipping comments', () => {
    expect(
      ipFields(
        '# comment: x\nNetRange: 8.8.8.0 - 8.8.8.255\nCIDR: 8.8.8.0/24\nNetName: GOGL\nOrgName: Google LLC\nCountry: US\n',
      ),
    ).toEqual({
      netname: 'GOGL',
      org: 'Google LLC',
      country: 'US',
      inetnum: '8.8.8.0 - 8.8.8.255',
      cidr: '8.8.8.0/24',
    });
  });
});
