import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientAddressResolver, UnauthenticatedError, UnavailableError, VisitorIds } from '@ipdata/common';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaceADispatcher } from './face-a.dispatcher.js';
import { defineCall, type CallContext } from './face-a-call.js';

// The framework on a real socket with calls defined here: body parsing, limits, login, the
// envelope. The calls echo what they received.
const seen: CallContext[] = [];
const VALID_TOKEN = 'a'.repeat(43);

const dispatcher = new FaceADispatcher({
  calls: [
    defineCall({
      name: 'echo',
      path: '/v1/echo',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        ip: { kind: 'ip', label: 'IP 地址', required: false },
        name: { kind: 'string', label: '名称', required: false, maxLength: 100 },
      },
      handle: async (context, input) => {
        seen.push(context);
        return { data: { ip: input.ip?.text ?? null, name: input.name ?? null } };
      },
    }),
    defineCall({
      name: 'upload',
      path: '/v1/upload',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        file: { kind: 'file', label: '文件', required: true },
        note: { kind: 'string', label: '备注', required: false, maxLength: 10 },
      },
      handle: async (_context, { file, note }) => ({
        data: { filename: file.filename, size: file.data.length, text: file.data.toString('utf8'), note: note ?? null },
      }),
    }),
    defineCall({
      name: 'v2/get',
      path: '/v2/get',
      methods: ['GET'],
      needsLogin: false,
      silent: false,
      input: { ip: { kind: 'ip', label: 'IP 地址', required: true } },
      handle: async (_context, { ip }) => ({ data: { ip: ip.text } }),
    }),
    defineCall({
      name: 'me',
      path: '/v1/me',
      methods: ['POST'],
      needsLogin: true,
      silent: true,
      input: {},
      handle: async (context) => ({ data: { account: context.accountId } }),
    }),
    defineCall({
      name: 'boom',
      path: '/v1/boom',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {},
      handle: () => Promise.reject(new Error('secret internal detail at /srv/app.js:12')),
    }),
  ],
  documents: new Map([['/v1/openapi.json', '{"openapi":"3.1.0"}']]),
  sessions: {
    resolve: (token) => {
      if (token === VALID_TOKEN) return Promise.resolve({ accountId: 'acc-1' });
      if (token === 'b'.repeat(43)) return Promise.reject(new UnavailableError('14 UNAVAILABLE: auth down'));
      return Promise.reject(new UnauthenticatedError('session expired', { reason: 'session_invalid' }));
    },
  },
  clientAddress: new ClientAddressResolver(['127.0.0.1']),
  visitorIds: new VisitorIds('test-visitor-secret-0123456789abcdef'),
  limits: { maxFieldBytes: 1024, maxFileBytes: 2048, maxFields: 5 },
  logger: pino({ level: 'silent' }),
});

let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const handled = dispatcher.handle(request, response);
    if (handled === undefined) response.writeHead(418).end('not face A');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${base}${path}`, { method: 'POST', ...init });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: JSON.parse(text) as { code: number; msg: string; data: unknown },
  };
}

describe('face A dispatcher', () => {
  it('reads multipart form-data, urlencoded, JSON and query strings alike', async () => {
    const form = new FormData();
    form.set('ip', ' 8.8.8.8 ');
    form.set('name', '张三');
    expect((await call('/v1/echo', { body: form })).body).toEqual({
      code: 200,
      msg: '成功',
      data: { ip: '8.8.8.8', name: '张三' },
    });
    const urlencoded = await call('/v1/echo', { body: new URLSearchParams({ ip: '2001:DB8::1', name: '李四' }) });
    expect(urlencoded.body.data).toEqual({ ip: '2001:db8::1', name: '李四' });
    const json = await call('/v1/echo', { body: '{"ip":"1.1.1.1","name":7}', headers: { 'content-type': 'application/json' } });
    expect(json.body.data).toEqual({ ip: '1.1.1.1', name: '7' });
    expect((await call('/v1/echo?ip=9.9.9.9')).body.data).toEqual({ ip: '9.9.9.9', name: null });
    const get = await call('/v2/get?ip=114.114.114.114', { method: 'GET' });
    expect([get.status, get.body]).toEqual([200, { code: 200, msg: '成功', data: { ip: '114.114.114.114' } }]);
  });

  it('answers bad input as HTTP 200 code 400 with a Chinese msg', async () => {
    const bad = await call('/v2/get?ip=1.2.3', { method: 'GET' });
    expect([bad.status, bad.body]).toEqual([200, { code: 400, msg: '请输入正确的IP 地址', data: null }]);
    expect((await call('/v2/get', { method: 'GET' })).body).toMatchObject({ code: 400, msg: '请输入IP 地址' });
    const xml = await call('/v1/echo', { body: '<a/>', headers: { 'content-type': 'text/xml' } });
    expect(xml.body).toMatchObject({ code: 400, msg: '不支持的请求格式，请以 form-data 提交' });
    const broken = await call('/v1/echo', { body: '{', headers: { 'content-type': 'application/json' } });
    expect(broken.body).toMatchObject({ code: 400, msg: '请求内容不是有效的 JSON' });
    const noBoundary = await call('/v1/echo', { body: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.body).toMatchObject({ code: 400, msg: '表单格式不正确' });
  });

  it('takes an uploaded file with its name and bytes, and refuses one over the limit or on a call without files', async () => {
    const form = new FormData();
    form.set('file', new Blob(['1.1.1.1\n8.8.8.8\n'], { type: 'text/plain' }), '地址.txt');
    form.set('note', 'batch');
    expect((await call('/v1/upload', { body: form })).body.data).toEqual({
      filename: '地址.txt',
      size: 16,
      text: '1.1.1.1\n8.8.8.8\n',
      note: 'batch',
    });
    const big = new FormData();
    big.set('file', new Blob([Buffer.alloc(4096, 65)]), 'big.txt');
    const tooBig = await call('/v1/upload', { body: big });
    expect(tooBig.body).toEqual({ code: 400, msg: '上传文件过大（最大 2 KB）', data: null });
    expect(tooBig.headers.get('connection')).toBe('close');
    expect((await call('/v1/upload', { body: new FormData() })).body).toMatchObject({ code: 400, msg: '请上传文件' });
    const stray = new FormData();
    stray.set('file', new Blob(['x']), 'x.txt');
    expect((await call('/v1/echo', { body: stray })).body).toMatchObject({ code: 400, msg: '该接口不接受文件上传' });
  });

  it('refuses oversized fields and too many fields', async () => {
    const long = await call('/v1/echo', { body: new URLSearchParams({ name: 'x'.repeat(2000) }) });
    expect(long.body).toMatchObject({ code: 400, msg: '参数 name 过长（最大 1 KB）' });
    const many = new URLSearchParams();
    for (let i = 0; i < 8; i++) many.set(`f${i}`, 'x');
    expect((await call('/v1/echo', { body: many })).body).toMatchObject({ code: 400, msg: '参数过多（最多 5 个）' });
  });

  it('answers 506 on a login call without a token, with an invalid one, and 503 when auth is down', async () => {
    expect((await call('/v1/me')).body).toEqual({ code: 506, msg: '登录已失效，请重新登录', data: null });
    expect((await call('/v1/me', { headers: { token: 'nope' } })).body).toMatchObject({ code: 506 });
    expect((await call('/v1/me', { headers: { token: 'b'.repeat(43) } })).body).toMatchObject({
      code: 503,
      msg: '服务暂不可用，请稍后再试',
    });
    expect((await call('/v1/me', { headers: { token: VALID_TOKEN } })).body).toEqual({
      code: 200,
      msg: '成功',
      data: { account: 'acc-1' },
    });
  });

  it('answers unexpected failures 500 without any detail', async () => {
    const boom = await call('/v1/boom');
    expect([boom.status, boom.body]).toEqual([200, { code: 500, msg: '服务器繁忙，请稍后再试', data: null }]);
    expect(boom.text).not.toContain('secret');
  });

  it('answers unknown paths 404 and wrong methods 405, in the envelope; other paths are not its own', async () => {
    const unknown = await call('/v1/nothing');
    expect([unknown.status, unknown.body]).toEqual([404, { code: 404, msg: '接口不存在', data: null }]);
    const method = await call('/v1/echo', { method: 'GET' });
    expect([method.status, method.body.code, method.headers.get('allow')]).toEqual([405, 400, 'POST']);
    expect((await fetch(`${base}/healthz`)).status).toBe(418);
    const doc = await fetch(`${base}/v1/openapi.json`);
    expect([doc.status, await doc.text()]).toEqual([200, '{"openapi":"3.1.0"}']);
  });

  it('gives calls the plat, the token, the client address behind trusted proxies and a visitor id', async () => {
    seen.length = 0;
    await call('/v1/echo', { headers: { plat: 'wap', token: ' t1 ', 'x-forwarded-for': '203.0.113.9', 'user-agent': 'UA' } });
    await call('/v1/echo', { headers: { 'user-agent': 'UA' } });
    const [first, second] = seen;
    expect(first).toMatchObject({ plat: 'wap', token: 't1', clientIp: '203.0.113.9', accountId: undefined });
    expect(first?.visitorId).toBe(new VisitorIds('test-visitor-secret-0123456789abcdef').of('203.0.113.9', 'UA'));
    expect(second).toMatchObject({ plat: 'pc', token: undefined, clientIp: '127.0.0.1' });
    expect(first?.requestId).not.toBe(second?.requestId);
  });
});
