import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyFor, routeMethod } from './head.js';
import { OpenApiDocument } from './openapi-document.js';

const request = (method: string | undefined) => ({ method }) as IncomingMessage;

describe('HEAD', () => {
  it('is routed as GET (and a request without a method too); other methods as they are', () => {
    expect(routeMethod(request('HEAD'))).toBe('GET');
    expect(routeMethod(request(undefined))).toBe('GET');
    expect(routeMethod(request('GET'))).toBe('GET');
    expect(routeMethod(request('POST'))).toBe('POST');
    expect(routeMethod(request('OPTIONS'))).toBe('OPTIONS');
  });

  it("ends without GET's body", () => {
    expect(bodyFor(request('HEAD'), 'x')).toBeUndefined();
    expect(bodyFor(request('GET'), 'x')).toBe('x');
  });
});

describe('OpenApiDocument', () => {
  const document = new OpenApiDocument('/v9/openapi.json', '{"openapi":"3.1.0","info":{"title":"é"}}');
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (document.matches(routeMethod(req), (req.url ?? '/').split('?')[0] ?? '/')) document.serve(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers GET with the JSON, its length in bytes and five minutes of caching', async () => {
    const response = await fetch(`${base}/v9/openapi.json?x=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength('{"openapi":"3.1.0","info":{"title":"é"}}')));
    expect(await response.json()).toEqual({ openapi: '3.1.0', info: { title: 'é' } });
  });

  it("answers HEAD with GET's headers and no body; other methods and paths are not its own", async () => {
    const head = await fetch(`${base}/v9/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(document.body.length));
    expect(await head.text()).toBe('');
    expect((await fetch(`${base}/v9/openapi.json`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/v9/openapi.yaml`)).status).toBe(404);
  });
});
