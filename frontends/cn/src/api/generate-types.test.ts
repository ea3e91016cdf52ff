import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateFaceATypes, GENERATED_TYPES } from './generate-types.js';

describe('face A types', () => {
  it('are what bff-cn’s OpenAPI document generates today (run `npm run gen:api -w @ipdata/frontend-cn`)', async () => {
    const checkedIn = await readFile(GENERATED_TYPES, 'utf8');
    expect(checkedIn).toBe(await generateFaceATypes());
    expect(checkedIn).toContain('IpView: {');
  });
});
