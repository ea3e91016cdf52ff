import { SmsPurpose } from '@ipdata/proto/auth/v1/auth';
import { UsageChannel, UsageResult } from '@ipdata/proto/events/v1/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPhone } from '../../auth/test/fixtures/auth-harness.js';
import { BffCnHarness, randomVisitor } from './fixtures/bff-cn-harness.js';

// bff-cn's calls against a real lookup engine, auth, Redis and Kafka (fixtures/bff-cn-harness.ts).

const h = new BffCnHarness();
beforeAll(() => h.start());
afterAll(() => h.stop());

describe('face A lookups', () => {
  it('ip_self_search looks up the caller (behind the trusted proxy) with Chinese names first', async () => {
    const answer = await h.call('/v1/ip_self_search', { from: '114.114.114.114', headers: { plat: 'wap' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      code: 200,
      msg: '成功',
      data: {
        ip: '114.114.114.114',
        country: '中国',
        province: '江苏',
        city: '南京',
        isp: '电信',
        area: '中国 江苏 南京 电信',
        country_code: 'CN',
        city_en: 'Nanjing',
        network: '114.114.114.0/24',
      },
    });
  });

  it('ip_search_zone, ip_search_zone_new and /v2/query answer the same view; English where there is no Chinese name', async () => {
    const zone = await h.call('/v1/ip_search_zone', { form: { ip: '8.8.8.8' } });
    expect(zone.body.data).toMatchObject({ ip: '8.8.8.8', country: 'United States', city: 'Mountain View', asn: 15169 });
    const fresh = await h.call('/v1/ip_search_zone_new', { form: { ip: '8.8.8.8' } });
    const query = await h.call('/v2/query?ip=8.8.8.8');
    // time_zone offsets are computed per answer; everything else is identical.
    expect(fresh.body.data).toEqual(zone.body.data);
    expect(query.body.data).toEqual(zone.body.data);
    const v6 = await h.call('/v2/query?ip=2001:4860:0:0:0:0:0:8888');
    expect(v6.body.data).toMatchObject({ ip: '2001:4860::8888', country: 'Germany', city: 'Berlin' });
  });

  it('answers special-purpose addresses without location and bad input with code 400', async () => {
    expect((await h.call('/v1/ip_search_zone', { form: { ip: '192.168.1.1' } })).body.data).toMatchObject({
      area: '局域网',
      reserved: 'private',
      country: null,
    });
    expect((await h.call('/v1/ip_search_zone', { form: { ip: '1.2.3' } })).body).toEqual({
      code: 400,
      msg: '请输入正确的IP 地址',
      data: null,
    });
    expect((await h.call('/v2/query')).body).toEqual({ code: 400, msg: '请输入IP 地址', data: null });
  });

  it('/v2/get_area answers the place by GET and POST; asn_info_ip_search the ASN, 404 without one', async () => {
    const area = await h.call('/v2/get_area?ip=114.114.114.114');
    expect(area.body).toEqual({
      code: 200,
      msg: '成功',
      data: {
        ip: '114.114.114.114',
        area: '中国 江苏 南京 电信',
        country: '中国',
        province: '江苏',
        city: '南京',
        isp: '电信',
        country_code: 'CN',
      },
    });
    expect((await h.call('/v2/get_area', { method: 'POST', form: { ip: '114.114.114.114' } })).body).toEqual(area.body);
    const asn = await h.call('/v1/asn_info_ip_search', { form: { ip: '1.0.0.1' } });
    expect(asn.body.data).toMatchObject({
      asn: 13335,
      asn_name: 'Cloudflare, Inc.',
      usage_type: 'DCH',
      network: '1.0.0.0/24',
      country_code: 'AU',
    });
    expect((await h.call('/v1/asn_info_ip_search', { form: { ip: '114.114.114.114' } })).body).toEqual({
      code: 404,
      msg: '未找到该 IP 的 ASN 信息',
      data: null,
    });
  });

  it('emits one usage event per lookup: WEB_CN, visitor id, country, province, call name', async () => {
    const visitor = randomVisitor();
    const answer = await h.call('/v1/ip_search_zone', {
      form: { ip: '114.114.114.114' },
      from: visitor,
      headers: { 'user-agent': 'test-browser' },
    });
    const id = answer.headers.get('x-request-id') ?? '';
    const event = await h.usage.waitFor((e) => e.meta?.id === id, { what: 'the usage event', timeoutMs: 20_000 });
    expect(event).toMatchObject({
      channel: UsageChannel.USAGE_CHANNEL_WEB_CN,
      visitorId: expect.stringMatching(/^v-[0-9a-f]{32}$/) as unknown,
      ip: '114.114.114.114',
      countryCode: 'CN',
      province: '江苏',
      endpoint: 'ip_search_zone',
      result: UsageResult.USAGE_RESULT_FOUND,
      count: 1,
      ipVersion: 4,
      accountId: '',
    });
    const second = await h.call('/v2/query?ip=192.168.0.1', { from: visitor, headers: { 'user-agent': 'test-browser' } });
    const reserved = await h.usage.waitFor((e) => e.meta?.id === second.headers.get('x-request-id'), {
      what: 'reserved',
      timeoutMs: 20_000,
    });
    expect(reserved).toMatchObject({
      endpoint: 'v2/query',
      result: UsageResult.USAGE_RESULT_RESERVED,
      count: 0,
      freeCount: 1,
      visitorId: event.visitorId,
    });
  });

  it('limits lookups per visitor address with a clear msg, without touching other visitors', async () => {
    const visitor = randomVisitor();
    for (let i = 0; i < 5; i++) expect((await h.call('/v2/query?ip=8.8.8.8', { from: visitor })).body.code).toBe(200);
    expect((await h.call('/v1/ip_search_zone', { form: { ip: '8.8.8.8' }, from: visitor })).body).toEqual({
      code: 429,
      msg: '查询过于频繁，请稍后再试',
      data: null,
    });
    expect((await h.call('/v2/query?ip=8.8.8.8', { from: randomVisitor() })).body.code).toBe(200);
  });
});

describe('face A card tools', () => {
  it('checks an ID card, a phone number and a bank card; malformed input is code 400', async () => {
    const id = await h.call('/v2/id_card?id=11010519491231002X');
    expect(id.body).toMatchObject({ code: 200, data: { valid: true, birth_date: '1949-12-31', sex: 'female', sex_name: '女' } });
    expect((await h.call('/v2/id_card?id=abc')).body).toMatchObject({ code: 400, data: null });
    const phone = await h.call('/v2/phone?phone=13800138000');
    expect(phone.body).toMatchObject({ code: 200, data: { valid: true, national_number: '13800138000' } });
    const card = await h.call('/v2/card?card=6222021234567890123');
    expect(card.body.code).toBe(200);
    expect(card.body.data).toHaveProperty('luhn');
    expect((await h.call('/v2/card')).body).toEqual({ code: 400, msg: '请输入银行卡号', data: null });
  });
});

describe('face A accounts through auth', () => {
  it('registers with an SMS code, logs in by password and by code, answers user_info, resets the password', async () => {
    const phone = randomPhone();
    const sent = await h.call('/v1/send_sms_code', { form: { phone, type: 'register' } });
    expect(sent.body).toMatchObject({
      code: 200,
      msg: '验证码已发送',
      data: { resend_after_seconds: 60, expires_in_seconds: 300 },
    });
    const registered = await h.call('/v1/user_regis', {
      form: { phone, code: h.auth.sms.lastCode(phone), password: 'secret-1234' },
    });
    expect(registered.body).toMatchObject({
      code: 200,
      msg: '注册成功',
      data: { user: { phone, display_name: phone, channel: 'phone' } },
    });
    const token = (registered.body.data as { token: string }).token;

    const info = await h.call('/v1/user_info', { headers: { token } });
    // No content service in this harness: user_info still answers, with unread unknown (null);
    // the real count is tested in content-calls.test.ts.
    expect(info.body).toMatchObject({ code: 200, data: { user: { phone, auth: ['api:free'] }, unread: null } });

    const login = await h.call('/v1/phone_login', { form: { phone, password: 'secret-1234', remember: '1' } });
    expect(login.body).toMatchObject({ code: 200, data: { user: { phone } } });
    const wrong = await h.call('/v1/phone_login', { form: { phone, password: 'not-the-password' } });
    expect(wrong.body).toMatchObject({ code: 400, data: null });
    expect(wrong.body.msg).toMatch(/[\u4e00-\u9fff]/);

    h.auth.clock.advance(61_000);
    await h.call('/v1/send_sms_code', { form: { phone, type: 'login' } });
    const byCode = await h.call('/v1/user_login_phone_code', { form: { phone, code: h.auth.sms.lastCode(phone) } });
    expect(byCode.body).toMatchObject({ code: 200, data: { user: { phone } } });

    h.auth.clock.advance(61_000);
    await h.call('/v1/send_sms_code', { form: { phone, type: 'reset_password' } });
    const reset = await h.call('/v1/user_update_password_phone', {
      form: { phone, code: h.auth.sms.lastCode(phone), password: 'new-secret-5678', password_confirmation: 'new-secret-5678' },
    });
    expect(reset.body).toMatchObject({ code: 200, data: null });
    // Every session ended with the reset: the old token is now 506.
    expect((await h.call('/v1/user_info', { headers: { token } })).body).toEqual({
      code: 506,
      msg: '登录已失效，请重新登录',
      data: null,
    });
    expect((await h.call('/v1/phone_login', { form: { phone, password: 'new-secret-5678' } })).body.code).toBe(200);
  });

  it('answers 506 on user_info without a token or with a made-up one, and 400 for bad phone input', async () => {
    expect((await h.call('/v1/user_info')).body).toEqual({ code: 506, msg: '登录已失效，请重新登录', data: null });
    expect((await h.call('/v1/user_info', { headers: { token: 'x'.repeat(43) } })).body.code).toBe(506);
    expect((await h.call('/v1/send_sms_code', { form: { phone: '12345', type: 'login' } })).body).toEqual({
      code: 400,
      msg: '请输入正确的手机号',
      data: null,
    });
    expect((await h.call('/v1/send_sms_code', { form: { phone: randomPhone(), type: 'admin' } })).body.code).toBe(400);
    const badCode = await h.call('/v1/user_regis', { form: { phone: randomPhone(), code: '000000', password: 'secret-1234' } });
    expect(badCode.body).toMatchObject({ code: 400, data: null });
    expect(badCode.body.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it("passes auth's SMS limits on as code 429", async () => {
    const phone = randomPhone();
    expect((await h.call('/v1/send_sms_code', { form: { phone, type: 'login' } })).body.code).toBe(200);
    const again = await h.call('/v1/send_sms_code', { form: { phone, type: 'login' } });
    expect(again.body).toMatchObject({ code: 429, data: null });
    expect(again.body.msg).toMatch(/[\u4e00-\u9fff]/);
    void SmsPurpose;
  });
});
