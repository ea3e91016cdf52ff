import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatePublicApiTypes, generateWebApiTypes, GENERATED_PUBLIC_TYPES, GENERATED_TYPES } from './generate-types.js';

describe('web API types', () => {
  it('are what bff-en’s web API document generates today (run `npm run gen:api -w @ipdata/frontend-en`)', async () => {
    const checkedIn = await readFile(GENERATED_TYPES, 'utf8');
    expect(checkedIn).toBe(await generateWebApiTypes());
    expect(checkedIn).toContain('Profile: {');
  });

  it('include the public API’s, for the IP info result the lookup shows', async () => {
    const checkedIn = await readFile(GENERATED_PUBLIC_TYPES, 'utf8');
    expect(checkedIn).toBe(await generatePublicApiTypes());
    expect(checkedIn).toContain('IpInfo: {');
  });
});
