import { describe, expect, it } from 'vitest';
import { usageWindowOf } from './usage.routes.js';

const at = (iso: string) => new Date(iso);
const HOUR_MS = 3_600_000;

describe("the dashboard's usage window (UTC)", () => {
  it("per day: this month's days so far, ending at the midnight after now; one day on the 1st", () => {
    expect(usageWindowOf('day', at('2031-01-01T00:00:01Z'))).toEqual({
      from: at('2031-01-01T00:00:00Z'),
      to: at('2031-01-02T00:00:00Z'),
    });
    expect(usageWindowOf('day', at('2030-12-31T23:59:59.999Z'))).toEqual({
      from: at('2030-12-01T00:00:00Z'),
      to: at('2031-01-01T00:00:00Z'),
    });
    expect(usageWindowOf('day', at('2028-02-29T23:59:40Z'))).toEqual({
      from: at('2028-02-01T00:00:00Z'),
      to: at('2028-03-01T00:00:00Z'),
    });
    // 1 January at UTC+8 (the Shanghai-zoned test run), still December in UTC.
    expect(usageWindowOf('day', at('2030-12-31T16:00:00Z')).from).toEqual(at('2030-12-01T00:00:00Z'));
  });

  it('per hour: the 48 whole hours up to the end of the current hour, across New Year and a leap day', () => {
    expect(usageWindowOf('hour', at('2030-12-31T23:59:59.999Z'))).toEqual({
      from: at('2030-12-30T00:00:00Z'),
      to: at('2031-01-01T00:00:00Z'),
    });
    expect(usageWindowOf('hour', at('2031-01-01T00:00:00Z'))).toEqual({
      from: at('2030-12-30T01:00:00Z'),
      to: at('2031-01-01T01:00:00Z'),
    });
    // 29 February is one of the 48 hours' days.
    const leap = usageWindowOf('hour', at('2028-03-01T00:30:00Z'));
    expect(leap).toEqual({ from: at('2028-02-28T01:00:00Z'), to: at('2028-03-01T01:00:00Z') });
    expect(leap.to.getTime() - leap.from.getTime()).toBe(48 * HOUR_MS);
  });
});
