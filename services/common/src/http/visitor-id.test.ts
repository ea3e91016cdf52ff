import { describe, expect, it } from 'vitest';
import { VisitorIds } from './visitor-id.js';

describe('visitor id', () => {
  const ids = new VisitorIds('test-visitor-secret-0123456789abcdef');

  it('is stable for one address and browser, and differs by address, browser and secret', () => {
    const id = ids.of('203.0.113.7', 'Mozilla/5.0');
    expect(id).toMatch(/^v-[0-9a-f]{32}$/);
    expect(ids.of('203.0.113.7', 'Mozilla/5.0')).toBe(id);
    expect(ids.of('203.0.113.8', 'Mozilla/5.0')).not.toBe(id);
    expect(ids.of('203.0.113.7', 'curl/8.0')).not.toBe(id);
    expect(new VisitorIds('another-secret-0123456789abcdefghij').of('203.0.113.7', 'Mozilla/5.0')).not.toBe(id);
  });

  it('keeps address and User-Agent apart (no ambiguity where one ends)', () => {
    expect(ids.of('1.2.3.4', '5x')).not.toBe(ids.of('1.2.3.45', 'x'));
    expect(ids.of('1.2.3.4', undefined)).toBe(ids.of('1.2.3.4', ''));
  });
});
