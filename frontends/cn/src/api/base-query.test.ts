import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseQueryApi } from '../test/test-utils.js';
import { createStore } from '../store/store.js';
import { SILENT_CALLS, isSilentCall } from './call-rules.js';
import { createFaceABaseQuery, type BaseQueryOptions, type FaceACall } from './base-query.js';
import { platOf } from './platform.js';

// The browser's fetch is replaced by a recorder: these tests check what the app sends and how
// it reads answers; the browser end-to-end tests run the same code against the real bff-cn.
interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: FormData | null;
  signal: AbortSignal | null;
}

const PC_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

function setup(answer: (sent: Sent) => Response | Promise<Response>, options: BaseQueryOptions = {}, token = '') {
  const store = createStore(token ? { user: { user: null, token, channel: '', unread: 0, auth: [] } } : undefined);
  const sent: Sent[] = [];
  const saved: { blob: Blob; filename: string }[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const record: Sent = {
      url: input instanceof Request ? input.url : input.toString(),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body instanceof FormData ? init.body : null,
      signal: init?.signal ?? null,
    };
    sent.push(record);
    return answer(record);
  });
  const query = createFaceABaseQuery({
    fetchFn,
    userAgent: () => PC_UA,
    saveFile: (blob, filename) => saved.push({ blob, filename }),
    ...options,
  });
  const call = (args: FaceACall) => query(args, baseQueryApi(store), {});
  const toasts = () => store.getState().toast.items.map((t) => `${t.kind}:${t.text}`);
  return { store, sent, saved, call, toasts };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('face A base query', () => {
  it('POSTs /v1 calls to the API root with a form-data body and the plat header, no token when logged out', async () => {
    const { sent, call } = setup(() => json({ code: 200, msg: '成功', data: { ok: 1 } }), { apiRoot: 'https://api.example' });
    const result = await call({
      url: '/v1/phone_login',
      fields: { phone: '13800138000', password: 'pw', remember: 1, skip: undefined },
    });

    expect(result).toEqual({ data: { ok: 1 }, meta: { msg: '成功' } });
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request?.url).toBe('https://api.example/v1/phone_login');
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('plat')).toBe('pc');
    expect(request?.headers.has('token')).toBe(false);
    expect(request?.body).toBeInstanceOf(FormData);
    expect([...request!.body!.entries()]).toEqual([
      ['phone', '13800138000'],
      ['password', 'pw'],
      ['remember', '1'],
    ]);
  });

  it('sends GET calls (/v2/*, /v1/find_index) with query parameters and no body', async () => {
    const { sent, call } = setup(() => json({ code: 200, msg: '', data: null }));
    await call({ url: '/v2/query', fields: { ip: '8.8.8.8', lang: 'zh' } });
    await call({ url: '/v1/find_index' });
    expect(sent.map((s) => [s.method, s.url, s.body])).toEqual([
      ['GET', '/v2/query?ip=8.8.8.8&lang=zh', null],
      ['GET', '/v1/find_index', null],
    ]);
  });

  it('sends the token header from the store when logged in, and plat wap on phones and tablets', async () => {
    const { sent, call } = setup(() => json({ code: 200, msg: '', data: null }), { userAgent: () => IPHONE_UA }, 'tok-123');
    await call({ url: '/v1/user_info' });
    expect(sent[0]?.headers.get('token')).toBe('tok-123');
    expect(sent[0]?.headers.get('plat')).toBe('wap');
    expect(platOf('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe('wap');
    expect(platOf('Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Safari/537.36')).toBe('wap');
    expect(platOf(PC_UA)).toBe('pc');
  });

  it('reads a non-200 code as {error: code, msg, data} and shows the server msg as a warning toast', async () => {
    const { call, toasts } = setup(() => json({ code: 400, msg: '请输入正确的手机号', data: null }));
    const result = await call({ url: '/v1/send_sms_code', fields: { phone: '1', type: 'login' } });
    expect(result).toEqual({ error: { error: 400, msg: '请输入正确的手机号', data: null } });
    expect(toasts()).toEqual(['warning:请输入正确的手机号']);
  });

  it('shows no toast for the silent calls of spec section 7', async () => {
    const { call, toasts } = setup(() => json({ code: 404, msg: '未找到', data: null }));
    for (const url of ['/v1/ip_search_zone', '/v1/news_ipdata_detail', '/v2/get_area', '/v1/user_info', '/v1/get_whois']) {
      expect((await call({ url })).error?.error).toBe(404);
    }
    expect(toasts()).toEqual([]);
    expect(SILENT_CALLS).toHaveLength(20);
    expect(isSilentCall('/v1/news_{product}_detail')).toBe(false);
    expect(isSilentCall('/v1/news_ipdata_list')).toBe(false);
    expect(isSilentCall('/v1/ip_search_zone_x')).toBe(false);
  });

  it('logs out silently on 506: token, user and cookie cleared, no toast', async () => {
    document.cookie = 'token=tok-506; path=/';
    const { store, call, toasts } = setup(() => json({ code: 506, msg: '登录已失效，请重新登录', data: null }), {}, 'tok-506');
    const result = await call({ url: '/v1/vip_info' });
    expect(result.error?.error).toBe(506);
    expect(store.getState().user.token).toBe('');
    expect(store.getState().user.user).toBeNull();
    expect(document.cookie).not.toContain('token=tok-506');
    expect(toasts()).toEqual([]);
  });

  it('gives up after 10 seconds with a timeout error and toast', async () => {
    vi.useFakeTimers();
    const { sent, call, toasts } = setup(
      (request) =>
        // Never answers; rejects like the browser's fetch when its signal aborts.
        new Promise<Response>((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = call({ url: '/v1/web_init' });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(sent[0]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ error: { error: 'TIMEOUT', msg: '请求超时，请稍后再试', data: null } });
    expect(sent[0]?.signal?.aborted).toBe(true);
    expect(toasts()).toEqual(['warning:请求超时，请稍后再试']);
  });

  it('saves a blob download as .xlsx and shows 导出成功', async () => {
    const xlsx = new Uint8Array([0x50, 0x4b, 3, 4]);
    const { sent, saved, call, toasts } = setup(
      () =>
        new Response(xlsx, {
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': `attachment; filename="batch.xlsx"; filename*=UTF-8''${encodeURIComponent('IP批量查询-20250101.xlsx')}`,
          },
        }),
    );
    const result = await call({ url: '/v1/query_ip_batch_zone', fields: { ips: '8.8.8.8\n1.1.1.1' } });
    expect(sent[0]?.method).toBe('POST');
    expect(result).toEqual({ data: { filename: 'IP批量查询-20250101.xlsx', size: 4 }, meta: { msg: '导出成功' } });
    expect(saved.map((s) => s.filename)).toEqual(['IP批量查询-20250101.xlsx']);
    expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(xlsx);
    expect(toasts()).toEqual(['success:导出成功']);
  });

  it('sends an upload as a file field and reads a JSON answer instead of a file as an error with its msg', async () => {
    const { sent, saved, call, toasts } = setup(() => json({ code: 400, msg: '仅支持 .xlsx、.csv、.txt 文件', data: null }));
    const file = new File(['8.8.8.8'], 'ips.pdf', { type: 'application/pdf' });
    const result = await call({ url: '/v1/upload_ip_xlsx', fields: { file } });
    expect(result.error).toEqual({ error: 400, msg: '仅支持 .xlsx、.csv、.txt 文件', data: null });
    expect((sent[0]?.body?.get('file') as File).name).toBe('ips.pdf');
    expect(saved).toEqual([]);
    expect(toasts()).toEqual(['warning:仅支持 .xlsx、.csv、.txt 文件']);
  });

  it('reads an answer that is not face A JSON as a failure, and a network failure as one', async () => {
    const { call, toasts } = setup(() => new Response('<html>bad gateway</html>', { status: 502 }));
    expect((await call({ url: '/v1/web_init' })).error?.error).toBe('BAD_ANSWER');
    const down = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await down.call({ url: '/v1/web_init' })).error?.error).toBe('NETWORK');
    expect(toasts()).toEqual(['warning:服务器繁忙，请稍后再试']);
    expect(down.toasts()).toEqual(['warning:网络异常，请检查网络后重试']);
  });
});

describe('retries (spec section 7: 408, 409, 425, 429, 500, 502, 503, 504; never a non-idempotent call)', () => {
  it('retries a GET call on a retryable status, honouring Retry-After, and answers with the retry', async () => {
    let n = 0;
    const { sent, call } = setup(() =>
      ++n === 1
        ? new Response('busy', { status: 503, headers: { 'retry-after': '0' } })
        : json({ code: 200, msg: '成功', data: { ip: '8.8.8.8' } }),
    );
    const result = await call({ url: '/v2/query', fields: { ip: '8.8.8.8' } });
    expect(result).toMatchObject({ data: { ip: '8.8.8.8' } });
    expect(sent.map((request) => request.method)).toEqual(['GET', 'GET']);
  });

  it('gives up after two retries, and never retries a status outside the list', async () => {
    const always = setup(() => new Response('down', { status: 502, headers: { 'retry-after': '0' } }));
    expect((await always.call({ url: '/v2/query', fields: { ip: '1.1.1.1' } })).error).toBeDefined();
    expect(always.sent).toHaveLength(3);
    const notFound = setup(() => json({ code: 404, msg: '接口不存在', data: null }, 404));
    await notFound.call({ url: '/v2/query', fields: { ip: '1.1.1.1' } });
    expect(notFound.sent).toHaveLength(1);
  });

  it('never retries a POST call', async () => {
    const { sent, call } = setup(() => new Response('busy', { status: 503 }));
    await call({ url: '/v1/send_sms_code', fields: { phone: '13800138000', type: 'login' } });
    expect(sent).toHaveLength(1);
  });
});
