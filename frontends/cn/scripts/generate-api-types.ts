import { writeFile } from 'node:fs/promises';
import { generateFaceATypes, GENERATED_TYPES } from '../src/api/generate-types.js';

// `npm run gen:api`: rewrites src/api/generated/face-a.openapi.ts from bff-cn's OpenAPI document.
await writeFile(GENERATED_TYPES, await generateFaceATypes());
process.stdout.write(`wrote ${GENERATED_TYPES}\n`);
