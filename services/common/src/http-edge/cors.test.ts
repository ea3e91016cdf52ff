import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorsPolicy } from './cors.js';

const cors = new CorsPolicy({
  allowOrigin: '*',
  allowMethods: ['GET', 'POST', 'OPTIONS'],
  allowHeaders: ['Authorization', 'X-API-Key'],
  exposeHeaders: ['X-Request-Id', 'Retry-After'],
  maxAgeSeconds: 86_400,
});

let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    if (cors.isPreflight(request)) return cors.answerPreflight(response);
    response.writeHead(200, [
      'Access-Control-Allow-Origin',
      cors.allowOrigin,
      'Access-Control-Expose-Headers',
      cors.exposeHeaders,
    ]);
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('CorsPolicy', () => {
  it('answers a preflight 204 with the allowed origin, methods (OPTIONS once), headers and max age, and no body', async () => {
    const response = await fetch(`${base}/anything`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')))).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'Authorization, X-API-Key',
      'access-control-max-age': '86400',
    });
    expect(await response.text()).toBe('');
  });

  it('gives every other answer the origin and the headers a script may read', async () => {
    const response = await fetch(`${base}/x`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe('X-Request-Id, Retry-After');
  });

  it("names OPTIONS in a 405's Allow: the preflight answers it on every path", () => {
    expect(cors.allow(['GET'])).toBe('GET, OPTIONS');
    expect(cors.allow(['GET', 'POST'])).toBe('GET, POST, OPTIONS');
  });
});
