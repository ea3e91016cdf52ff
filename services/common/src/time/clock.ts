/**
 * The time source for every expiry, limit, period and timestamp, so tests can move time instead
 * of sleeping. Production code takes a Clock (default `systemClock`); tests pass a ManualClock
 * from '@ipdata/common/testing'.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
