import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateOpenApiTypes } from '@ipdata/web-kit/openapi-types';

/** The contract the app is typed against: bff-cn's own document, the one its contract test checks. */
// Paths, not URLs: the web tests run under jsdom, whose URL class node:fs does not accept.
const HERE = dirname(fileURLToPath(import.meta.url));
export const FACE_A_OPENAPI = join(HERE, '../../../../services/bff-cn/openapi/face-a.yaml');
export const GENERATED_TYPES = join(HERE, 'generated/face-a.openapi.ts');

export function generateFaceATypes(): Promise<string> {
  return generateOpenApiTypes(FACE_A_OPENAPI, 'services/bff-cn/openapi/face-a.yaml', 'npm run gen:api -w @ipdata/frontend-cn');
}
