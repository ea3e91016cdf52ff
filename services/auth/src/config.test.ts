import { ConfigError } from '@ipdata/common';
import { describe, expect, it } from 'vitest';
import { loadAuthConfig } from './config.js';

const secrets = {
  SMS_GATEWAY_URL: 'https://sms.provider.example/send',
  SMS_GATEWAY_SECRET: 'provider-shared-secret',
  EMAIL_LINK_SECRET: 'a-production-secret-of-more-than-32-chars',
};

describe('auth config', () => {
  it('has production-strength defaults and the agreed ports', () => {
    const config = loadAuthConfig({ ...secrets });
    expect(config).toMatchObject({
      GRPC_PORT: 50052,
      HEALTH_PORT: 9102,
      SCRYPT_N: 32768,
      SMS_GATEWAY: 'http',
      SMS_PER_IP_PER_HOUR: 20,
    });
    expect(config.MONGO_URL).toBe('mongodb://127.0.0.1:27017/ipdata_auth');
  });

  it('requires the secrets outside development, naming them without echoing values', () => {
    expect(() => loadAuthConfig({})).toThrowError(/SMS_GATEWAY_SECRET: missing[\s\S]*EMAIL_LINK_SECRET: missing/);
  });

  it('requires the provider URL with the http SMS gateway', () => {
    expect(() => loadAuthConfig({ ...secrets, SMS_GATEWAY_URL: '' })).toThrowError(/SMS_GATEWAY_URL: missing/);
  });

  it('refuses the log SMS gateway, dev secrets and weak scrypt in production', () => {
    let caught: unknown;
    try {
      loadAuthConfig({
        SMS_GATEWAY: 'log',
        SMS_GATEWAY_SECRET: 'dev-only-sms-gateway-secret-not-for-production',
        EMAIL_LINK_SECRET: 'short',
        SCRYPT_N: '1024',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    expect(message).toContain('SMS_GATEWAY: "log" prints codes');
    expect(message).toContain('EMAIL_LINK_SECRET: expected at least 32 characters');
    expect(message).toContain('development values are refused');
    expect(message).toContain('SCRYPT_N: expected at least 32768');
  });

  it('fills obvious dev secrets only when APP_ENV=development and allows the log gateway there', () => {
    const config = loadAuthConfig({ APP_ENV: 'development', NODE_ENV: 'development', SMS_GATEWAY: 'log' });
    expect(config.EMAIL_LINK_SECRET).toMatch(/^dev-only-/);
    expect(config.SMS_GATEWAY).toBe('log');
    // NODE_ENV=production still wins.
    expect(() => loadAuthConfig({ APP_ENV: 'development', NODE_ENV: 'production', SMS_GATEWAY: 'log' })).toThrowError(/refused/);
  });
});
