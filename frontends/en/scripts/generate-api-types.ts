import { writeFile } from 'node:fs/promises';
import {
  generatePublicApiTypes,
  generateWebApiTypes,
  GENERATED_PUBLIC_TYPES,
  GENERATED_TYPES,
} from '../src/api/generate-types.js';

// `npm run gen:api`: rewrites src/api/generated/*.openapi.ts from bff-en's web and public API documents.
for (const [file, generate] of [
  [GENERATED_TYPES, generateWebApiTypes],
  [GENERATED_PUBLIC_TYPES, generatePublicApiTypes],
] as const) {
  await writeFile(file, await generate());
  process.stdout.write(`wrote ${file}\n`);
}
