import { describe, expect, it } from 'vitest';
import { zoneTime } from './time-zone.js';

describe('zoneTime', () => {
  it('computes offset and local time from the IANA zone, including DST', () => {
    const winter = Date.UTC(2026, 0, 15, 12, 0, 0);
    const summer = Date.UTC(2026, 6, 15, 12, 0, 0);
    expect(zoneTime('Asia/Shanghai', winter)).toEqual({ offset: '+08:00', currentTime: '2026-01-15T20:00:00+08:00' });
    expect(zoneTime('Europe/Berlin', winter)).toEqual({ offset: '+01:00', currentTime: '2026-01-15T13:00:00+01:00' });
    expect(zoneTime('Europe/Berlin', summer)).toEqual({ offset: '+02:00', currentTime: '2026-07-15T14:00:00+02:00' });
    expect(zoneTime('America/St_Johns', winter)?.offset).toBe('-03:30');
    expect(zoneTime('Asia/Kathmandu', winter)?.offset).toBe('+05:45');
  });

  it('answers null for an unknown zone', () => {
    expect(zoneTime('Mars/Olympus_Mons', Date.now())).toBeNull();
  });
});

describe('zoneTime across calendar and clock changes', () => {
  const at = (iso: string) => Date.parse(iso);

  it('rolls over from 31 Dec 23:59:59 to 1 Jan in the zone, not in UTC', () => {
    expect(zoneTime('UTC', at('2026-12-31T23:59:59.999Z'))?.currentTime).toBe('2026-12-31T23:59:59+00:00');
    expect(zoneTime('UTC', at('2027-01-01T00:00:00.000Z'))?.currentTime).toBe('2027-01-01T00:00:00+00:00');
    // China reaches the new year eight hours before UTC does...
    expect(zoneTime('Asia/Shanghai', at('2026-12-31T15:59:59.999Z'))?.currentTime).toBe('2026-12-31T23:59:59+08:00');
    expect(zoneTime('Asia/Shanghai', at('2026-12-31T16:00:00.000Z'))?.currentTime).toBe('2027-01-01T00:00:00+08:00');
    // ...and Los Angeles eight hours after.
    expect(zoneTime('America/Los_Angeles', at('2027-01-01T00:00:00.000Z'))?.currentTime).toBe('2026-12-31T16:00:00-08:00');
  });

  it('moves to the next second at once, though it caches the current one per zone', () => {
    expect(zoneTime('Asia/Shanghai', at('2026-12-31T15:59:59.000Z'))?.currentTime).toBe('2026-12-31T23:59:59+08:00');
    expect(zoneTime('Asia/Shanghai', at('2026-12-31T15:59:59.999Z'))?.currentTime).toBe('2026-12-31T23:59:59+08:00');
    expect(zoneTime('Asia/Shanghai', at('2026-12-31T16:00:00.000Z'))?.currentTime).toBe('2027-01-01T00:00:00+08:00');
    // An earlier instant after a later one is not answered from the cache either.
    expect(zoneTime('Asia/Shanghai', at('2026-12-31T15:59:58.000Z'))?.currentTime).toBe('2026-12-31T23:59:58+08:00');
  });

  it('knows 29 February of a leap year, in zones on either side of UTC', () => {
    expect(zoneTime('Asia/Shanghai', at('2028-02-29T12:00:00Z'))?.currentTime).toBe('2028-02-29T20:00:00+08:00');
    expect(zoneTime('Asia/Shanghai', at('2028-02-29T15:59:59Z'))?.currentTime).toBe('2028-02-29T23:59:59+08:00');
    expect(zoneTime('Asia/Shanghai', at('2028-02-29T16:00:00Z'))?.currentTime).toBe('2028-03-01T00:00:00+08:00');
    expect(zoneTime('Pacific/Kiritimati', at('2028-02-28T10:00:00Z'))?.currentTime).toBe('2028-02-29T00:00:00+14:00');
    expect(zoneTime('America/New_York', at('2028-03-01T04:59:59Z'))?.currentTime).toBe('2028-02-29T23:59:59-05:00');
    // Not a leap year: 28 February is followed by 1 March.
    expect(zoneTime('Asia/Shanghai', at('2027-02-28T16:00:00Z'))?.currentTime).toBe('2027-03-01T00:00:00+08:00');
  });

  it('follows a DST change the second it happens, both ways', () => {
    // Europe/Berlin: clocks go from 02:00 to 03:00 on 29 Mar 2026 and from 03:00 to 02:00 on 25 Oct 2026.
    expect(zoneTime('Europe/Berlin', at('2026-03-29T00:59:59Z'))).toEqual({
      offset: '+01:00',
      currentTime: '2026-03-29T01:59:59+01:00',
    });
    expect(zoneTime('Europe/Berlin', at('2026-03-29T01:00:00Z'))).toEqual({
      offset: '+02:00',
      currentTime: '2026-03-29T03:00:00+02:00',
    });
    expect(zoneTime('Europe/Berlin', at('2026-10-25T00:59:59Z'))).toEqual({
      offset: '+02:00',
      currentTime: '2026-10-25T02:59:59+02:00',
    });
    expect(zoneTime('Europe/Berlin', at('2026-10-25T01:00:00Z'))).toEqual({
      offset: '+01:00',
      currentTime: '2026-10-25T02:00:00+01:00',
    });
    // America/New_York: 8 Mar 2026, 02:00 local becomes 03:00.
    expect(zoneTime('America/New_York', at('2026-03-08T06:59:59Z'))).toEqual({
      offset: '-05:00',
      currentTime: '2026-03-08T01:59:59-05:00',
    });
    expect(zoneTime('America/New_York', at('2026-03-08T07:00:00Z'))).toEqual({
      offset: '-04:00',
      currentTime: '2026-03-08T03:00:00-04:00',
    });
    // China keeps one offset all year.
    expect(zoneTime('Asia/Shanghai', at('2026-07-15T12:00:00Z'))?.offset).toBe('+08:00');
  });

  it('writes midnight as 00, not 24', () => {
    expect(zoneTime('Europe/Berlin', at('2026-01-14T23:00:00Z'))?.currentTime).toBe('2026-01-15T00:00:00+01:00');
  });
});
