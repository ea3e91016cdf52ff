import { describe, expect, it } from 'vitest';
import { env } from './env-vars.js';
import { ConfigError, loadConfig, redactConfig } from './load-config.js';

const schema = {
  SERVICE_PORT: env.port(),
  KAFKA_BROKERS: env.addressList(),
  MONGO_URL: env.secret(env.url(['mongodb'])),
  LOG_LEVEL: env.oneOf(['info', 'debug'], 'info'),
  CACHE_ENABLED: env.flag(true),
  WORKERS: env.int({ min: 1, max: 8, default: 2 }),
};

describe('loadConfig', () => {
  it('reads a list variable that may be empty', () => {
    const lists = { PROXIES: env.list() };
    expect(loadConfig(lists, {}).PROXIES).toEqual([]);
    expect(loadConfig(lists, { PROXIES: '' }).PROXIES).toEqual([]);
    expect(loadConfig(lists, { PROXIES: ' 10.0.0.0/8 ,, 192.0.2.1 ' }).PROXIES).toEqual(['10.0.0.0/8', '192.0.2.1']);
  });

  it('reads a domain name that may be empty (a cookie domain), refusing anything else', () => {
    const domains = { COOKIE_DOMAIN: env.domainName({ default: '' }) };
    expect(loadConfig(domains, {}).COOKIE_DOMAIN).toBe('');
    expect(loadConfig(domains, { COOKIE_DOMAIN: 'www.ipdata.example' }).COOKIE_DOMAIN).toBe('www.ipdata.example');
    for (const bad of ['https://ipdata.example', 'ipdata.example/', '-bad.example', 'a b.example']) {
      expect(() => loadConfig(domains, { COOKIE_DOMAIN: bad }), bad).toThrow(ConfigError);
    }
  });

  it('parses valid values, applies defaults and freezes the result', () => {
    const config = loadConfig(schema, {
      SERVICE_PORT: '50051',
      KAFKA_BROKERS: '127.0.0.1:9092, 127.0.0.1:9093',
      MONGO_URL: 'mongodb://127.0.0.1:27017/ipdata',
    });
    expect(config).toEqual({
      SERVICE_PORT: 50051,
      KAFKA_BROKERS: ['127.0.0.1:9092', '127.0.0.1:9093'],
      MONGO_URL: 'mongodb://127.0.0.1:27017/ipdata',
      LOG_LEVEL: 'info',
      CACHE_ENABLED: true,
      WORKERS: 2,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad variable at once with what was expected', () => {
    let caught: unknown;
    try {
      loadConfig(schema, {
        SERVICE_PORT: '70000',
        KAFKA_BROKERS: 'not a broker',
        MONGO_URL: 'http://user:hunter2@db',
        LOG_LEVEL: 'loud',
        CACHE_ENABLED: 'yes',
        WORKERS: '0',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.problems).toHaveLength(6);
    expect(error.message).toContain('6 problems');
    expect(error.message).toContain('SERVICE_PORT: got "70000", expected a TCP port number (0-65535)');
    expect(error.message).toContain('KAFKA_BROKERS: got "not a broker", expected a comma-separated list of host:port');
    expect(error.message).toContain('MONGO_URL: got (secret value hidden), expected a URL starting with mongodb://');
    expect(error.message).toContain('LOG_LEVEL: got "loud", expected one of info, debug');
    expect(error.message).toContain('CACHE_ENABLED: got "yes", expected "true" or "false"');
    expect(error.message).toContain('WORKERS: got "0", expected an integer between 1 and 8');
    expect(error.message).not.toContain('hunter2');
  });

  it('reports missing required variables and treats empty strings as unset', () => {
    expect(() => loadConfig(schema, { SERVICE_PORT: '', MONGO_URL: 'mongodb://db' })).toThrowError(
      /SERVICE_PORT: missing, expected a TCP port number[\s\S]*KAFKA_BROKERS: missing, expected a comma-separated list of host:port/,
    );
  });

  it('redacts secrets when the config is logged', () => {
    const config = loadConfig(schema, { SERVICE_PORT: '1', KAFKA_BROKERS: 'k:1', MONGO_URL: 'mongodb://u:p@db' });
    expect(redactConfig(schema, config)).toMatchObject({ MONGO_URL: '[redacted]', SERVICE_PORT: 1 });
  });
});
