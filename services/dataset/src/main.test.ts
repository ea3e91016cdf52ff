import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVICE_DIR } from './config.js';

const folder = mkdtempSync(join(tmpdir(), 'dataset-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function runCli(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', join(SERVICE_DIR, 'src/main.ts')], {
    env: { ...process.env, DATASETS_DIR: join(folder, 'datasets'), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('dataset CLI', () => {
  it('stops on a bad privacy list with one line naming the file, the line and the problem', () => {
    const lists = join(folder, 'lists');
    mkdirSync(lists);
    const bad = join(lists, 'tor-broken.csv');
    writeFileSync(bad, 'start,end\n1.2.3.4,1.2.3.9\nnot-an-address,1.2.3.4\n');
    const result = runCli({ PRIVACY_LISTS_DIR: lists });
    expect(result.status).toBe(1);
    expect(
      result.stderr
        .trimEnd()
        .split('\n')
        .filter((line) => !line.endsWith('%')),
    ).toEqual([`dataset: ${bad}: line 3: expected start,end[,label] with two IPv4 or two IPv6 addresses`]);
  });

  it('names a missing privacy-list folder', () => {
    const missing = join(folder, 'no-such-folder');
    const result = runCli({ PRIVACY_LISTS_DIR: missing });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`dataset: ${missing}: not found\n`);
  });
});
