import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { WEB_OPENAPI_FILE, webApiRoutes, type WebApiRoutesDeps } from './web-api.routes.js';

interface Document {
  paths: Record<string, Record<string, { operationId: string }>>;
}

describe('the web API document', () => {
  it('lists exactly the routes bff-en serves, with the same operation ids', () => {
    // The handlers are not called: only the table is compared.
    const unused = new Proxy({}, { get: () => undefined }) as never;
    const deps: WebApiRoutesDeps = {
      accounts: unused,
      billing: unused,
      unread: unused,
      contact: unused,
      usageSeries: unused,
      quota: undefined,
      databases: unused,
      lookups: unused,
      domains: unused,
      accounting: unused,
      visitorIds: unused,
      limiter: unused,
      config: {
        SITE_ORIGIN: 'http://127.0.0.1:8082',
        COOKIE_DOMAIN: '',
        APP_ENV: 'test',
        DEFAULT_BURST_PER_SECOND: 50,
        WEB_LOOKUP_RATE_LIMIT: 60,
        WEB_LOOKUP_RATE_WINDOW_SECONDS: 60,
        WEB_CONTACT_RATE_LIMIT: 10,
        WEB_CONTACT_RATE_WINDOW_SECONDS: 3600,
      },
      logger: pino({ level: 'silent' }),
    };
    const served = webApiRoutes(deps).map((route) => `${route.method} ${route.path} ${route.name}`);
    const document = parse(readFileSync(WEB_OPENAPI_FILE, 'utf8')) as Document;
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    );
    expect(served.sort()).toEqual(documented.sort());
  });
});
