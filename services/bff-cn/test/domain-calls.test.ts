import { type LocalDnsServer, DNS_RCODE, startLocalDnsServer, waitFor } from '@ipdata/common/testing';
import { reverseName } from '@ipdata/common/dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffCnHarness, randomVisitor } from './fixtures/bff-cn-harness.js';
import { type LocalWhoisServer, startLocalWhoisServer } from './fixtures/local-whois-server.js';

// Domains and WHOIS through the running bff-cn with a real lookup engine, Redis and Kafka; DNS and
// WHOIS servers are local (127.0.0.1) only.
let dns: LocalDnsServer;
let iana: LocalWhoisServer;
let registry: LocalWhoisServer;
let registrar: LocalWhoisServer;
let silent: LocalWhoisServer;
let flood: LocalWhoisServer;
const env: Record<string, string> = {};
const h = new BffCnHarness(env);

beforeAll(async () => {
  dns = await startLocalDnsServer({
    'both.example': { A: ['114.114.114.114', '114.114.114.114'], AAAA: ['2001:4860::1'] },
    'v4.example': { A: ['8.8.8.8'] },
    'missing.example': { rcode: DNS_RCODE.NXDOMAIN },
    'slow.example': { silent: true },
    'broken.example': { rcode: DNS_RCODE.SERVFAIL },
    [reverseName('8.8.8.8') as string]: { PTR: ['dns.google.'] },
    [reverseName('114.114.114.114') as string]: { silent: true },
  });
  silent = await startLocalWhoisServer({ silent: true });
  flood = await startLocalWhoisServer({ bytes: 300 * 1024 });
  registrar = await startLocalWhoisServer({
    text: () =>
      'Domain Name: EXAMPLE-THIN.COM\r\nRegistrar: 示例注册商 Ltd\r\nCreation Date: 1995-08-14T04:00:00Z\r\n' +
      'Registrar Registration Expiration Date: 2030-08-13T04:00:00Z\r\nName Server: NS1.EXAMPLE.NET\r\n' +
      'Name Server: ns2.example.net.\r\nDomain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited\r\n',
  });
  registry = await startLocalWhoisServer({
    text: (query) =>
      query === 'nobody.com'
        ? 'No match for "NOBODY.COM".\r\n'
        : query === 'slowref.com'
          ? `Domain Name: SLOWREF.COM\r\nRegistrar WHOIS Server: 127.0.0.1:${silent.port}\r\n`
          : `Domain Name: ${query.toUpperCase()}\r\nRegistrar WHOIS Server: 127.0.0.1:${registrar.port}\r\nCreation Date: 1995-08-14T04:00:00Z\r\n`,
  });
  iana = await startLocalWhoisServer({
    text: (query) =>
      query.includes(':') || /^\d/.test(query)
        ? 'inetnum:      114.0.0.0 - 114.255.255.255\r\nrefer:        127.0.0.1:' + String(registryIp.port) + '\r\n'
        : query.endsWith('.big')
          ? `refer:        127.0.0.1:${flood.port}\r\n`
          : query.endsWith('.zz')
            ? '% This query returned 0 objects.\r\n'
            : `% IANA WHOIS server\r\nrefer:        127.0.0.1:${registry.port}\r\n\r\ndomain:       COM\r\ncreated:      1985-01-01\r\n`,
  });
  Object.assign(env, {
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '300',
    WHOIS_SERVER: `127.0.0.1:${iana.port}`,
    WHOIS_TIMEOUT_MS: '500',
    WHOIS_REFERRAL_ALLOW_IP: 'true',
    WHOIS_REFERRAL_OTHER_PORTS: 'true',
    DOMAIN_TOOLS_RATE_LIMIT: '20',
  });
  await h.start();
});

const registryIp = { port: 0 };
beforeAll(async () => {
  const rir = await startLocalWhoisServer({
    text: () =>
      'inetnum:        114.114.0.0 - 114.114.255.255\r\nnetname:        Greatwall-Net\r\ndescr:          南京信风网络\r\ncountry:        CN\r\n',
  });
  registryIp.port = rir.port;
  closers.push(() => rir.close());
});
const closers: Array<() => Promise<void>> = [];

afterAll(async () => {
  await h.stop();
  await Promise.all([dns, iana, registry, registrar, silent, flood].map((server) => server?.close()));
  await Promise.all(closers.map((close) => close()));
});

describe('queryDomain / ip_search_domain / ip_search_Domin_new', () => {
  it('resolves A and AAAA and looks up each address with Chinese names first, one usage event each', async () => {
    const answer = await h.call('/v1/ip_search_domain', { form: { domain: 'BOTH.example.' } });
    expect(answer.body).toMatchObject({ code: 200, data: { domain: 'both.example' } });
    const addresses = (answer.body.data as { addresses: Array<Record<string, unknown>> }).addresses;
    expect(addresses.map((view) => view['ip'])).toEqual(['114.114.114.114', '2001:4860::1']);
    expect(addresses[0]).toMatchObject({ country: '中国', province: '江苏', city: '南京', isp: '电信' });
    const requestId = answer.headers.get('x-request-id') as string;
    const events = await waitFor(
      () => {
        const found = h.usage.events.filter((event) => event.meta?.id.startsWith(`${requestId}:`));
        return found.length >= 2 ? found : undefined;
      },
      { timeoutMs: 15_000, what: 'two usage events' },
    );
    expect(events.map((event) => [event.endpoint, event.ip]).sort()).toEqual([
      ['ip_search_domain', '114.114.114.114'],
      ['ip_search_domain', '2001:4860::1'],
    ]);
    const fresh = await h.call('/v1/ip_search_Domin_new', { form: { domain: 'v4.example' } });
    const v2 = await h.call('/v2/queryDomain?domain=v4.example');
    expect((fresh.body.data as { addresses: unknown[] }).addresses).toHaveLength(1);
    expect((v2.body.data as { domain: string }).domain).toBe('v4.example');
  });

  it('answers clear msgs: bad name 400, no records 404, timeout and failure 503', async () => {
    const ask = async (domain: string) => (await h.call('/v1/ip_search_domain', { form: { domain } })).body;
    expect(await ask('not a domain')).toMatchObject({ code: 400, msg: '请输入正确的域名' });
    expect(await ask('missing.example')).toMatchObject({ code: 404, msg: '域名不存在或没有解析记录' });
    expect(await ask('slow.example')).toMatchObject({ code: 503, msg: '域名解析超时，请稍后再试' });
    expect(await ask('broken.example')).toMatchObject({ code: 503, msg: '域名解析失败，请稍后再试' });
  });

  it('counts each address against the visitor lookup limit (5 a minute in the harness)', async () => {
    const from = randomVisitor();
    for (let i = 0; i < 2; i++)
      expect((await h.call('/v1/ip_search_domain', { form: { domain: 'both.example' }, from })).body.code).toBe(200);
    expect((await h.call('/v1/ip_search_domain', { form: { domain: 'both.example' }, from })).body).toMatchObject({ code: 429 });
  });
});

describe('get_domain_by_ip', () => {
  it('answers PTR names, an empty list when none, and 503 on a timeout', async () => {
    expect((await h.call('/v1/get_domain_by_ip', { form: { ip: '8.8.8.8' } })).body).toMatchObject({
      code: 200,
      data: { ip: '8.8.8.8', names: ['dns.google'] },
    });
    expect((await h.call('/v1/get_domain_by_ip', { form: { ip: '1.0.0.1' } })).body).toMatchObject({
      code: 200,
      data: { names: [] },
    });
    expect((await h.call('/v1/get_domain_by_ip', { form: { ip: '114.114.114.114' } })).body).toMatchObject({
      code: 503,
      msg: '反向解析超时，请稍后再试',
    });
    expect((await h.call('/v1/get_domain_by_ip', { form: { ip: 'x' } })).body.code).toBe(400);
  });
});

describe('get_whois', () => {
  it('follows IANA → registry → registrar and parses the registrar answer', async () => {
    const answer = await h.call('/v1/get_whois', { form: { domain: 'Example-Thin.com' } });
    expect(answer.body.code, answer.text).toBe(200);
    const data = answer.body.data as Record<string, unknown>;
    expect(data['servers']).toEqual([`127.0.0.1:${iana.port}`, `127.0.0.1:${registry.port}`, `127.0.0.1:${registrar.port}`]);
    expect(data['fields']).toEqual({
      registrar: '示例注册商 Ltd',
      creation_date: '1995-08-14T04:00:00Z',
      expiry_date: '2030-08-13T04:00:00Z',
      name_servers: ['ns1.example.net', 'ns2.example.net'],
      status: ['clientTransferProhibited'],
    });
    expect((data['answers'] as unknown[]).length).toBe(3);
    expect(data['referral_error']).toBeNull();
    expect(registry.queries).toContain('example-thin.com');
  });

  it('answers an address through the RIR referral with netname, org, country, inetnum', async () => {
    const answer = await h.call('/v1/get_whois', { form: { ip: '114.114.114.114' } });
    expect(answer.body.data).toMatchObject({
      kind: 'ip',
      fields: { netname: 'Greatwall-Net', org: '南京信风网络', country: 'CN', inetnum: '114.114.0.0 - 114.114.255.255' },
    });
  });

  it('keeps earlier answers when a referred server times out; refuses an oversize answer; 404 for nobody', async () => {
    const slow = await h.call('/v1/get_whois', { form: { domain: 'slowref.com' } });
    expect(slow.body).toMatchObject({ code: 200, data: { referral_error: 'WHOIS 服务器响应超时，请稍后再试' } });
    expect((slow.body.data as { servers: string[] }).servers).toHaveLength(2);
    expect((await h.call('/v1/get_whois', { form: { domain: 'huge.big' } })).body).toMatchObject({
      code: 200,
      data: { referral_error: 'WHOIS 服务器应答过大' },
    });
    expect((await h.call('/v1/get_whois', { form: { domain: 'nobody.com' } })).body).toMatchObject({
      code: 404,
      msg: '未查询到该域名的 WHOIS 信息',
    });
    expect((await h.call('/v1/get_whois', { form: { domain: 'a.zz' } })).body.code).toBe(404);
  });

  it('refuses both or neither input, and a bad name', async () => {
    expect((await h.call('/v1/get_whois', { form: {} })).body.code).toBe(400);
    expect((await h.call('/v1/get_whois', { form: { domain: 'a.com', ip: '8.8.8.8' } })).body.code).toBe(400);
    expect((await h.call('/v1/get_whois', { form: { domain: 'a.com\r\nx' } })).body).toMatchObject({
      code: 400,
      msg: '请输入正确的域名',
    });
  });
});
