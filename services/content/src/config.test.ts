import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@ipdata/common';
import { loadContentConfig } from './config.js';

describe('content config', () => {
  it('has the documented defaults and the shipped files', () => {
    const config = loadContentConfig({});
    expect(config).toMatchObject({ GRPC_PORT: 50056, HEALTH_PORT: 9106, KAFKA_GROUP_ID: 'content', SEED_SAMPLES: true });
    expect(config.CONTACTS_FILE).toMatch(/services\/content\/config\/contacts\.yaml$/);
    expect(config.SEED_FILE).toMatch(/services\/content\/config\/sample-content\.json$/);
  });

  it('refuses a bad contacts file at start, naming every problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'content-config-'));
    const file = join(dir, 'contacts.yaml');
    writeFileSync(file, 'email:\n  - {name: 支持, value: nope}\nqq: 1\n');
    let error: unknown;
    try {
      loadContentConfig({ CONTACTS_FILE: file, SEED_FILE: join(dir, 'missing.json') });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      `CONTACTS_FILE (${file}): email[0]: value "nope", expected an e-mail address`,
      `CONTACTS_FILE (${file}): qq: must be a list of {name, value}`,
      expect.stringMatching(/^SEED_FILE \(.*missing\.json\): cannot read it as JSON: ENOENT/),
    ]);
    // Without seeding, the seed file is not read.
    expect(() => loadContentConfig({ SEED_SAMPLES: 'false', SEED_FILE: join(dir, 'missing.json') })).not.toThrow();
  });

  it('allows plaintext gRPC only in development and test', () => {
    expect(() => loadContentConfig({ GRPC_TRANSPORT: 'insecure' })).toThrow(/refused unless APP_ENV/);
    expect(loadContentConfig({ GRPC_TRANSPORT: 'insecure', APP_ENV: 'test' }).GRPC_TRANSPORT).toBe('insecure');
  });
});
