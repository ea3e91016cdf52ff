import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** openapi/face-a.yaml beside src/ and dist/ alike: the face A contract kept in the repo. */
export const FACE_A_OPENAPI_FILE = fileURLToPath(new URL('../../openapi/face-a.yaml', import.meta.url));

export const OPENAPI_PATH = '/v1/openapi.json';

/** The document as JSON, converted once at start (a broken file stops the start, not a request). */
export function loadFaceAOpenApiJson(file = FACE_A_OPENAPI_FILE): string {
  return JSON.stringify(parse(readFileSync(file, 'utf8')));
}
