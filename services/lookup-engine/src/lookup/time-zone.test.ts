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
