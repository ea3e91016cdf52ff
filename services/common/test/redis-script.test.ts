import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { defineRedisScript } from '@ipdata/common';
import { stackAddresses, uniqueName } from '@ipdata/common/testing';

const SET_IF_HIGHER = `
local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
local candidate = tonumber(ARGV[1])
if candidate > current then redis.call('SET', KEYS[1], candidate) return 1 end
return 0
`;

describe('defineRedisScript (typed Lua scripts on real Redis)', () => {
  const redis = new Redis(stackAddresses().redisUrl);
  const other = new Redis(stackAddresses().redisUrl);
  afterAll(() => {
    redis.disconnect();
    other.disconnect();
  });

  it('runs the script with keys then ARGV and returns its reply', async () => {
    const setIfHigher = defineRedisScript<[key: string, candidate: number], number>(redis, 'testSetIfHigher', {
      keys: 1,
      lua: SET_IF_HIGHER,
    });
    const key = uniqueName('max');
    expect(await setIfHigher(key, 5)).toBe(1);
    expect(await setIfHigher(key, 3)).toBe(0);
    expect(await redis.get(key)).toBe('5');
  });

  it('registers once per client: a second definition (another adapter instance) reuses it', async () => {
    const first = defineRedisScript<[string, number], number>(redis, 'testReuse', { keys: 1, lua: SET_IF_HIGHER });
    const second = defineRedisScript<[string, number], number>(redis, 'testReuse', { keys: 1, lua: SET_IF_HIGHER });
    const onOther = defineRedisScript<[string, number], number>(other, 'testReuse', { keys: 1, lua: SET_IF_HIGHER });
    const key = uniqueName('reuse');
    expect(await first(key, 1)).toBe(1);
    expect(await second(key, 2)).toBe(1);
    expect(await onOther(key, 2)).toBe(0);
  });

  it('refuses the same name with other Lua, and a name the client already uses', () => {
    defineRedisScript(redis, 'testClash', { keys: 1, lua: SET_IF_HIGHER });
    expect(() => defineRedisScript(redis, 'testClash', { keys: 1, lua: 'return 1' })).toThrow(/already defined .* other Lua/);
    expect(() => defineRedisScript(redis, 'get', { keys: 1, lua: 'return 1' })).toThrow(/already has a command/);
  });

  it('survives SCRIPT FLUSH (EVALSHA falls back to EVAL)', async () => {
    const setIfHigher = defineRedisScript<[string, number], number>(redis, 'testFlush', { keys: 1, lua: SET_IF_HIGHER });
    const key = uniqueName('flush');
    expect(await setIfHigher(key, 1)).toBe(1);
    await redis.script('FLUSH');
    expect(await setIfHigher(key, 2)).toBe(1);
    expect(await redis.get(key)).toBe('2');
  });
});
