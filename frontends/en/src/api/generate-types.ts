import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateOpenApiTypes } from '@ipdata/web-kit/openapi-types';

/** The contract the app is typed against: bff-en's web API document, the one its contract test checks. */
// Paths, not URLs: the web tests run under jsdom, whose URL class node:fs does not accept.
const HERE = dirname(fileURLToPath(import.meta.url));
const OPENAPI = join(HERE, '../../../../services/bff-en/openapi');
const COMMAND = 'npm run gen:api -w @ipdata/frontend-en';
export const WEB_API_OPENAPI = join(OPENAPI, 'web-api.yaml');
export const GENERATED_TYPES = join(HERE, 'generated/web-api.openapi.ts');
/** The public API's document: the lookup's answers are its IpInfo, which the web API only sketches. */
export const PUBLIC_API_OPENAPI = join(OPENAPI, 'public-api.yaml');
export const GENERATED_PUBLIC_TYPES = join(HERE, 'generated/public-api.openapi.ts');

export function generateWebApiTypes(): Promise<string> {
  return generateOpenApiTypes(WEB_API_OPENAPI, 'services/bff-en/openapi/web-api.yaml', COMMAND);
}

export function generatePublicApiTypes(): Promise<string> {
  return generateOpenApiTypes(PUBLIC_API_OPENAPI, 'services/bff-en/openapi/public-api.yaml', COMMAND);
}
