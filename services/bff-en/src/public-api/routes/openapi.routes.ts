import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { PublicRoute } from '../public-route.js';

/** openapi/public-api.yaml beside src/ and dist/ alike: the document kept in the repo. */
export const PUBLIC_OPENAPI_FILE = fileURLToPath(new URL('../../../openapi/public-api.yaml', import.meta.url));

/** The document as JSON, converted once at start (a broken file stops the start, not a request). */
export function loadOpenApiJson(file = PUBLIC_OPENAPI_FILE): string {
  return JSON.stringify(parse(readFileSync(file, 'utf8')));
}

export function openApiRoutes(json: string): PublicRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      auth: false,
      handle: (call) => {
        call.sendJsonText(200, json, ['Cache-Control', 'public, max-age=300']);
        return Promise.resolve();
      },
    },
  ];
}
