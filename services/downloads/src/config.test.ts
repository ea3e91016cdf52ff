import { describe, expect, it } from 'vitest';
import { ConfigError } from '@ipdata/common';
import { DEVELOPMENT_VALUES, loadDownloadsConfig } from './config.js';

describe('downloads config', () => {
  it('fills the link secret in development only, refuses short or development secrets elsewhere', () => {
    expect(loadDownloadsConfig({ APP_ENV: 'development' }).DOWNLOAD_LINK_SECRET).toBe(DEVELOPMENT_VALUES.DOWNLOAD_LINK_SECRET);
    expect(() => loadDownloadsConfig({ APP_ENV: 'test' })).toThrow(ConfigError);
    expect(() => loadDownloadsConfig({ APP_ENV: 'test', DOWNLOAD_LINK_SECRET: 'short' })).toThrow(/at least 32/);
    expect(() =>
      loadDownloadsConfig({ APP_ENV: 'production', DOWNLOAD_LINK_SECRET: DEVELOPMENT_VALUES.DOWNLOAD_LINK_SECRET }),
    ).toThrow(/development value/);
    const config = loadDownloadsConfig({ APP_ENV: 'production', DOWNLOAD_LINK_SECRET: 'x'.repeat(40) });
    expect(config).toMatchObject({
      GRPC_PORT: 50055,
      HEALTH_PORT: 9105,
      DAILY_DOWNLOAD_LIMIT: 20,
      KEEP_VERSIONS: 3,
      LINK_TTL_SECONDS: 600,
    });
    expect(config.PUBLIC_BASE_URL).toBe('http://127.0.0.1:9105');
  });
});
