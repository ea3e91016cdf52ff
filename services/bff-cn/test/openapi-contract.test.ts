import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { waitFor } from '@ipdata/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_A_CALLS } from '../src/calls/face-a-calls.js';
import { FACE_A_OPENAPI_FILE } from '../src/calls/openapi.document.js';
import type { FaceACall } from '../src/face-a/face-a-call.js';
import { BffCnHarness, type Answer } from './fixtures/bff-cn-harness.js';
import { startLocalDnsServer } from '@ipdata/common/testing';
import { reverseName } from '@ipdata/common/dns';
import { startLocalWhoisServer } from './fixtures/local-whois-server.js';

// openapi/face-a.yaml against the call table (fields, required ones, login, silent) and against
// real answers of the running bff-cn: success, bad input (400 with msg) and 506 where login is needed.

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const formatsExport = (formatsModule as unknown as { default: FormatsPlugin & { default?: FormatsPlugin } }).default;
const addFormats: FormatsPlugin = formatsExport.default ?? formatsExport;

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  [key: string]: unknown;
}
interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId: string;
  'x-needs-login'?: boolean;
  'x-silent'?: boolean;
  parameters?: Parameter[];
  requestBody?: { $ref?: string; content?: Record<string, { schema: Schema }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
}

const document = parse(readFileSync(FACE_A_OPENAPI_FILE, 'utf8')) as Document;
const BASE = 'https://ipdata.test/face-a';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: BASE, components: document.components });

function resolve<T extends { $ref?: string }>(value: T): T {
  if (!value.$ref) return value;
  const [, section = '', name = ''] = /^#\/components\/(\w+)\/(.+)$/.exec(value.$ref) ?? [];
  const target = document.components[section]?.[name] as T | undefined;
  if (!target) throw new Error(`unresolved ${value.$ref}`);
  return resolve(target);
}

/** The documented input fields of one operation: name → [required, schema]. */
function documentedFields(operation: Operation): Map<string, [boolean, Schema]> {
  const fields = new Map<string, [boolean, Schema]>();
  for (const raw of operation.parameters ?? []) {
    const parameter = resolve(raw);
    if (parameter.in === 'query') fields.set(parameter.name, [parameter.required ?? false, parameter.schema ?? {}]);
  }
  if (operation.requestBody) {
    const body = resolve(operation.requestBody);
    const multipart = resolve(body.content?.['multipart/form-data']?.schema ?? {});
    const urlencoded = resolve(body.content?.['application/x-www-form-urlencoded']?.schema ?? {});
    expect(urlencoded, `${operation.operationId}: urlencoded and multipart bodies differ`).toEqual(multipart);
    for (const [name, schema] of Object.entries(multipart.properties ?? {})) {
      fields.set(name, [(multipart.required ?? []).includes(name), schema]);
    }
  }
  return fields;
}

const validators = new Map<string, ValidateFunction>();
function problems(call: FaceACall, method: string, answer: Answer): string[] {
  const operation = document.paths[call.path]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${call.path} is not documented`];
  const response = operation.responses[String(answer.status)];
  if (!response) return [`status ${answer.status} not documented for ${call.name}`];
  const schema = resolve(response).content?.['application/json']?.schema;
  if (!schema) return [`no JSON schema for ${call.name}`];
  const key = `${call.path} ${method}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, `"${BASE}#/components/`)) as object);
    validators.set(key, validate);
  }
  return validate(answer.body) ? [] : [`${call.name}: ${ajv.errorsText(validate.errors)}: ${answer.text.slice(0, 300)}`];
}

describe('face-a.yaml documents the call table', () => {
  it('lists every call with its methods, and nothing the table lacks', () => {
    const documented = Object.entries(document.paths)
      .filter(([path]) => path !== '/v1/openapi.json')
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const served = FACE_A_CALLS.flatMap((call) => call.methods.map((method) => `${method} ${call.path}`)).sort();
    expect(documented).toEqual(served);
  });

  it.each(FACE_A_CALLS.map((call) => [call.name, call] as const))(
    '%s: same fields, required fields, login and silent flags',
    (_name, call) => {
      for (const method of call.methods) {
        const operation = document.paths[call.path]?.[method.toLowerCase()] as Operation;
        expect(operation['x-needs-login'], 'x-needs-login').toBe(call.needsLogin);
        expect(operation['x-silent'], 'x-silent').toBe(call.silent);
        const fields = documentedFields(operation);
        expect([...fields.keys()].sort()).toEqual(Object.keys(call.input).sort());
        for (const [name, spec] of Object.entries(call.input)) {
          const [required, schema] = fields.get(name) as [boolean, Schema];
          expect(required, `${name} required`).toBe(spec.required);
          if (spec.kind === 'enum') expect(schema.enum, `${name} values`).toEqual([...spec.values]);
          if (spec.kind === 'file') expect(schema['format'], `${name} format`).toBe('binary');
        }
      }
    },
  );
});

describe('answers of the running bff-cn conform to face-a.yaml', () => {
  // The real probe worker for the traceroute calls; loopback targets allowed (tests only probe 127.0.0.1).
  // Domain calls (H13) resolve and ask WHOIS on local servers only, filled into the env before start.
  const env: Record<string, string> = { PROBE_ALLOW_PRIVATE: 'true' };
  const h = new BffCnHarness(env, { probe: true, stats: true, content: true, billing: true });
  const localServers: Array<{ close(): Promise<void> }> = [];
  let token = '';
  beforeAll(async () => {
    const dns = await startLocalDnsServer({
      'v4.example': { A: ['8.8.8.8'] },
      [reverseName('8.8.8.8') as string]: { PTR: ['dns.google'] },
    });
    const whois = await startLocalWhoisServer({ text: (query) => `Domain Name: ${query}\r\nRegistrar: Example Registrar\r\n` });
    localServers.push(dns, whois);
    Object.assign(env, { DNS_SERVERS: dns.address, WHOIS_SERVER: `127.0.0.1:${whois.port}` });
    await h.start();
    const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await h.call('/v1/send_sms_code', { form: { phone, type: 'register' } });
    const registered = await h.call('/v1/user_regis', {
      form: { phone, code: h.auth.sms.lastCode(phone), password: 'secret-1234' },
    });
    token = (registered.body.data as { token: string }).token;
    // traceroute_task_add needs a live probe site; traceroute_task_get's good request needs a task.
    await waitFor(async () => ((await h.call('/v1/traceroute_task_site')).body.data as unknown[] | null)?.length || undefined, {
      timeoutMs: 30_000,
      what: 'a probe site',
    });
    const added = await h.call('/v1/traceroute_task_add', { form: { ip: '127.0.0.1' } });
    requests['traceroute_task_get'] = {
      good: { task_id: (added.body.data as { task_id: string }).task_id },
      bad: { task_id: 'x' },
    };
  });
  afterAll(async () => {
    await h.stop();
    await Promise.all(localServers.map((server) => server.close()));
  });

  /** Per call: a good request (expected code 200) and a bad one (expected 400), as query or form fields. */
  const requests: Record<string, { good?: Record<string, string>; bad?: Record<string, string> }> = {
    ip_self_search: { good: {} },
    ip_search_zone: { good: { ip: '114.114.114.114' }, bad: { ip: 'nope' } },
    ip_search_zone_new: { good: { ip: '8.8.8.8' }, bad: {} },
    'v2/query': { good: { ip: '2001:4860::1' }, bad: { ip: '1.2.3.4.5' } },
    'v2/get_area': { good: { ip: '114.114.114.114' }, bad: {} },
    asn_info_ip_search: { good: { ip: '1.0.0.1' }, bad: { ip: '' } },
    'v2/id_card': { good: { id: '11010519491231002X' }, bad: { id: 'x' } },
    'v2/phone': { good: { phone: '13800138000' }, bad: {} },
    'v2/card': { good: { card: '6222021234567890123' }, bad: { card: 'abc' } },
    send_sms_code: { bad: { phone: '123', type: 'login' } },
    phone_login: { bad: { phone: '13800138000' } },
    user_login_phone_code: { bad: { phone: '13800138000', code: '12' } },
    user_regis: { bad: { phone: '13800138000', code: '123456' } },
    user_update_password_phone: { bad: { phone: '1380013800' } },
    user_info: { good: {} },
    // content and visit calls (H9): content and stats run in-process (harness options).
    web_init: { good: {} },
    find_index: { good: {} },
    get_notice: { good: { page_size: '2' }, bad: { page_size: '51' } },
    customer_service_list: { good: {} },
    news_ip_list: { good: { page: '1', page_size: '2' }, bad: { page: 'x' } },
    news_ip_detail: { good: { id: 'sample-ip-1' }, bad: { id: '../1' } },
    news_ip_recommend: { good: { id: 'sample-ip-1' }, bad: { page_size: '21' } },
    news_asn_list: { good: { page: '1', page_size: '2' }, bad: { page: 'x' } },
    news_asn_detail: { good: { id: 'sample-asn-1' }, bad: { id: '../1' } },
    news_asn_recommend: { good: { id: 'sample-asn-1' }, bad: { page_size: '21' } },
    news_report_list: { good: { page: '1', page_size: '2' }, bad: { page: 'x' } },
    news_report_detail: { good: { id: 'sample-report-1' }, bad: { id: '../1' } },
    news_report_recommend: { good: { id: 'sample-report-1' }, bad: { page_size: '21' } },
    news_industry_list: { good: { page: '1', page_size: '2' }, bad: { page: 'x' } },
    news_industry_detail: { good: { id: 'sample-industry-1' }, bad: { id: '../1' } },
    news_industry_recommend: { good: { id: 'sample-industry-1' }, bad: { page_size: '21' } },
    // A good sign-up needs a fresh SMS code: face-a-calls / content-calls tests cover it.
    regist_cooperation: { bad: { name: '张三', company: '示例公司', phone: '13800138000' } },
    // VIP (lead): billing in-process; ordering and paying are in vip-calls.test.ts.
    vip_plan_list: { good: {} },
    vip_info: { good: {} },
    vip_order_add: { bad: { plan_id: 'VIP MONTHLY' } },
    vip_order_get: { bad: { order_id: '../1' } },
    feedback_add: { good: { content: '很好用' }, bad: {} },
    ip_error_add: { good: { ip: '8.8.8.8', city: '北京' }, bad: { ip: '8.8.8.8' } },
    position_add: {
      good: { ip: '8.8.8.8', latitude: '39.9', longitude: '116.4' },
      bad: { ip: '8.8.8.8', latitude: '99', longitude: '0' },
    },
    get_into_add: { good: { page: '/' }, bad: { page: 'x' } },
    visit_history_add: { good: { page: '/ipv6', referrer: '/' }, bad: {} },
    cl_access_callback: { good: { page: '/asn' }, bad: { page: '/a?b=1' } },
    pc_uv_pv: { good: { days: '3' }, bad: { days: '0' } },
    traceroute_task_add: { good: { ip: '127.0.0.1' }, bad: { ip: 'nope' } },
    traceroute_task_get: {}, // filled in beforeAll
    traceroute_task_site: { good: {} },
    global_ip_total: { good: {} },
    global_country_count: { good: { country: 'CN', page_size: '10' }, bad: { country: 'china' } },
    global_country_update: { good: {}, bad: { page: '0' } },
    china_province_count: { good: { province: '广东' }, bad: { province: '火星' } },
    china_province_update: { good: {}, bad: { province: '火星' } },
    get_areas: { good: {} },
    idc_list: { good: { province: '44' }, bad: { province: '火星' } },
    idc_prov_list: { good: {} },
    global_country_trend: { good: { country: 'CN' }, bad: { days: '91' } },
    china_province_trend: { good: { province: '江苏', days: '3' }, bad: { province: '火星' } },
    search_count: { good: {}, bad: { days: 'x' } },
    search_count_new: { good: { days: '2' }, bad: { days: '0' } },
    // Batch (H12): a good request answers an .xlsx file, checked in batch-calls.test.ts; here the envelope.
    query_ip_batch_zone: { bad: {} },
    upload_ip_xlsx: { bad: {} },
    // Domains and WHOIS (H13): local DNS and WHOIS servers (beforeAll).
    'v2/queryDomain': { good: { domain: 'v4.example' }, bad: { domain: 'a b' } },
    ip_search_domain: { good: { domain: 'v4.example' }, bad: {} },
    ip_search_Domin_new: { good: { domain: 'V4.example.' }, bad: { domain: '1.2.3.4' } },
    get_domain_by_ip: { good: { ip: '8.8.8.8' }, bad: { ip: 'x' } },
    get_whois: { good: { domain: 'example.com' }, bad: { domain: 'example.com', ip: '8.8.8.8' } },
    // IP report (H15): the file answer itself is checked in report-calls.test.ts; here the JSON and the envelope.
    report_generate: { good: { ip: '114.114.114.114' }, bad: { ip: 'nope' } },
    report_generate_file: { bad: { ip: '8.8.8.8', format: 'doc' } },
    report_generate_examples: { good: {} },
    // ASN calls (H14): the harness's synthetic dataset has AS13335 (Cloudflare) and AS15169 (Google).
    asn_search: { good: { asn: 'AS13335', page_size: '1' }, bad: { asn: 'ASX' } },
    asn_list_search: { good: { keyword: 'google' }, bad: { country: 'china' } },
    asn_relation_search: { good: { asn: '15169' }, bad: { asn: '0' } },
  };

  async function ask(call: FaceACall, method: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const query = method === 'GET' ? `?${new URLSearchParams(fields).toString()}` : '';
    return h.call(`${call.path}${query}`, { method, headers, ...(method === 'POST' ? { form: fields } : {}) });
  }

  it('has a request for every call', () => {
    expect(Object.keys(requests).sort()).toEqual(FACE_A_CALLS.map((call) => call.name).sort());
  });

  it.each(FACE_A_CALLS.map((call) => [call.name, call] as const))('%s', async (name, call) => {
    const { good, bad } = requests[name] ?? {};
    for (const method of call.methods) {
      const headers: Record<string, string> = call.needsLogin ? { token } : {};
      if (good) {
        const answer = await ask(call, method, good, headers);
        expect(answer.body.code, answer.text).toBe(200);
        expect(problems(call, method, answer)).toEqual([]);
      }
      if (bad) {
        const answer = await ask(call, method, bad, headers);
        expect([answer.status, answer.body.code], answer.text).toEqual([200, 400]);
        expect(answer.body.msg).toMatch(/[\u4e00-\u9fff]/);
        expect(problems(call, method, answer)).toEqual([]);
      }
      if (call.needsLogin) {
        const answer = await ask(call, method, good ?? {});
        expect(answer.body).toEqual({ code: 506, msg: '登录已失效，请重新登录', data: null });
        expect(problems(call, method, answer)).toEqual([]);
      }
    }
  });

  it('serves the document at /v1/openapi.json', async () => {
    const response = await fetch(`${h.base}/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(document);
  });
});
