import { describe, expect, it } from 'vitest';
import { platOf } from './plat.js';

describe('plat header', () => {
  it('is wap only when the header says so (any case, spaces ignored), pc otherwise', () => {
    expect(platOf('wap')).toBe('wap');
    expect(platOf(' WAP ')).toBe('wap');
    expect(platOf(['wap', 'pc'])).toBe('wap');
    expect(platOf('pc')).toBe('pc');
    expect(platOf(undefined)).toBe('pc');
    expect(platOf('')).toBe('pc');
    expect(platOf('ios')).toBe('pc');
  });
});
