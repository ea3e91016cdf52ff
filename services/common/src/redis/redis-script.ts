import type { Redis } from 'ioredis';

export type RedisScriptArg = string | number | Buffer;

export interface RedisScriptDefinition {
  /** How many of the leading arguments are keys (KEYS[1..n]); the rest are ARGV. */
  keys: number;
  lua: string;
}

/** The scripts registered on each client, so one name cannot silently mean two scripts. */
const registered = new WeakMap<Redis, Map<string, string>>();

/**
 * A Lua script as a typed async function: `Args` are the keys followed by ARGV, `Reply` what the
 * script returns. The script is registered once per client with ioredis' defineCommand, which
 * sends EVALSHA and falls back to EVAL after a script-cache flush or a Redis restart. Defining the
 * same name again on the same client (a second adapter instance) reuses the registration;
 * defining it with other Lua throws, because one of the two callers would run the wrong script.
 */
export function defineRedisScript<Args extends readonly RedisScriptArg[], Reply>(
  redis: Redis,
  name: string,
  definition: RedisScriptDefinition,
): (...args: Args) => Promise<Reply> {
  let scripts = registered.get(redis);
  if (scripts === undefined) {
    scripts = new Map();
    registered.set(redis, scripts);
  }
  const existing = scripts.get(name);
  if (existing === undefined) {
    if (name in redis) throw new Error(`redis script "${name}": the client already has a command with that name`);
    redis.defineCommand(name, { numberOfKeys: definition.keys, lua: definition.lua });
    scripts.set(name, definition.lua);
  } else if (existing !== definition.lua) {
    throw new Error(`redis script "${name}" is already defined on this client with other Lua`);
  }
  const command = (redis as unknown as Record<string, (...args: RedisScriptArg[]) => Promise<Reply>>)[name];
  if (typeof command !== 'function') throw new Error(`redis script "${name}" was not registered`);
  return (...args: Args) => {
    if (args.length < definition.keys) {
      throw new RangeError(`redis script "${name}" needs ${definition.keys} key(s), got ${args.length} argument(s)`);
    }
    return command.apply(redis, [...args]);
  };
}
