import { ConfigError } from '@ipdata/common';
import { describe, expect, it } from 'vitest';
import { loadAuthConfig } from './config.js';

const secrets = {
  SMS_GATEWAY_URL: 'https://sms.provider.example/send',
  SMS_GATEWAY_SECRET: 'provider-shared-secret-of-32-chars-or-more',
  SMS_CODE_SECRET: 'a-production-sms-code-secret-of-32-chars',
  EMAIL_LINK_SECRET: 'a-production-secret-of-more-than-32-chars',
};

function problemsOf(source: NodeJS.ProcessEnv): string {
  try {
    loadAuthConfig(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  return '';
}

describe('auth config', () => {
  it('has production-strength defaults (OWASP scrypt N=2^17, r=8, p=1) and the agreed ports', () => {
    const config = loadAuthConfig({ ...secrets });
    expect(config).toMatchObject({
      GRPC_PORT: 50052,
      HEALTH_PORT: 9102,
      SCRYPT_N: 131072,
      SCRYPT_R: 8,
      SCRYPT_P: 1,
      SCRYPT_MAX_CONCURRENT: 4,
      SESSION_IDLE_TIMEOUT_SECONDS: 86_400,
      SMS_GATEWAY: 'http',
      SMS_PER_IP_PER_HOUR: 20,
      AUTH_TEST_HARNESS: false,
    });
    expect(config.MONGO_URL).toBe('mongodb://127.0.0.1:27017/ipdata_auth');
  });

  it('requires the secrets outside development, naming them without echoing values', () => {
    const message = problemsOf({});
    expect(message).toMatch(/SMS_GATEWAY_SECRET: missing/);
    expect(message).toMatch(/SMS_CODE_SECRET: missing/);
    expect(message).toMatch(/EMAIL_LINK_SECRET: missing/);
  });

  it('requires the provider URL with the http SMS gateway', () => {
    expect(problemsOf({ ...secrets, SMS_GATEWAY_URL: '' })).toMatch(/SMS_GATEWAY_URL: missing/);
  });

  it('refuses secrets shorter than 32 characters everywhere, also SMS_GATEWAY_SECRET, without echoing them', () => {
    for (const appEnv of ['production', 'test', 'development']) {
      const message = problemsOf({ ...secrets, APP_ENV: appEnv, SMS_GATEWAY_SECRET: 'provider-shared-secret' });
      expect(message).toContain('SMS_GATEWAY_SECRET: expected at least 32 characters');
      expect(message).not.toContain('provider-shared-secret');
    }
  });

  it('refuses the log SMS gateway, dev secrets and weak scrypt in production', () => {
    const message = problemsOf({
      SMS_GATEWAY: 'log',
      SMS_GATEWAY_SECRET: 'dev-only-sms-gateway-secret-not-for-production',
      SMS_CODE_SECRET: secrets.SMS_CODE_SECRET,
      EMAIL_LINK_SECRET: 'short',
      SCRYPT_N: '32768',
    });
    expect(message).toContain('SMS_GATEWAY: "log" prints codes');
    expect(message).toContain('EMAIL_LINK_SECRET: expected at least 32 characters');
    expect(message).toContain('SMS_GATEWAY_SECRET: a development value is refused in production');
    expect(message).toContain('SCRYPT_N/SCRYPT_R: expected at least N=131072, r=8');
  });

  it('does not relax anything for APP_ENV=test alone: log gateway and cheap scrypt need the harness flag', () => {
    const test = { ...secrets, APP_ENV: 'test', NODE_ENV: 'test' };
    const message = problemsOf({ ...test, SMS_GATEWAY: 'log', SCRYPT_N: '1024' });
    expect(message).toContain('SMS_GATEWAY: "log" prints codes');
    expect(message).toContain('SCRYPT_N/SCRYPT_R: expected at least');
    const harness = loadAuthConfig({ ...test, AUTH_TEST_HARNESS: 'true', SMS_GATEWAY: 'log', SCRYPT_N: '1024' });
    expect(harness).toMatchObject({ SMS_GATEWAY: 'log', SCRYPT_N: 1024 });
    // The flag means nothing outside APP_ENV=test, nor with NODE_ENV=production.
    expect(problemsOf({ ...secrets, AUTH_TEST_HARNESS: 'true', SCRYPT_N: '1024' })).toContain('SCRYPT_N/SCRYPT_R');
    expect(problemsOf({ ...test, NODE_ENV: 'production', AUTH_TEST_HARNESS: 'true', SCRYPT_N: '1024' })).toContain(
      'SCRYPT_N/SCRYPT_R',
    );
  });

  it('fills obvious dev secrets only when APP_ENV=development and allows the log gateway there', () => {
    const config = loadAuthConfig({ APP_ENV: 'development', NODE_ENV: 'development', SMS_GATEWAY: 'log' });
    expect(config.EMAIL_LINK_SECRET).toMatch(/^dev-only-/);
    expect(config.SMS_CODE_SECRET).toMatch(/^dev-only-/);
    expect(config.SMS_GATEWAY).toBe('log');
    // NODE_ENV=production still wins.
    expect(problemsOf({ APP_ENV: 'development', NODE_ENV: 'production', SMS_GATEWAY: 'log' })).toMatch(/refused in production/);
  });
});
