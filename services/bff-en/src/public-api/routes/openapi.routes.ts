import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPENAPI_CACHE_CONTROL, OpenApiDocument } from '@ipdata/common/http-edge';
import { parse } from 'yaml';
import { JSON_TYPE } from '../api-call.js';
import type { PublicRoute } from '../public-route.js';

/** openapi/public-api.yaml beside src/ and dist/ alike: the document kept in the repo. */
export const PUBLIC_OPENAPI_FILE = fileURLToPath(new URL('../../../openapi/public-api.yaml', import.meta.url));

/** The document as JSON, converted once at start (a broken file stops the start, not a request). */
export function loadOpenApiJson(file = PUBLIC_OPENAPI_FILE): string {
  return JSON.stringify(parse(readFileSync(file, 'utf8')));
}

/** The document's bytes, made once, with the headers every public API answer carries (ApiCall). */
export function openApiRoutes(json: string): PublicRoute[] {
  const document = new OpenApiDocument('/v1/openapi.json', json);
  return [
    {
      method: 'GET',
      path: document.path,
      auth: false,
      handle: (call) => {
        call.send(200, JSON_TYPE, document.body, ['Cache-Control', OPENAPI_CACHE_CONTROL]);
        return Promise.resolve();
      },
    },
  ];
}
