import type { Readable } from 'node:stream';
import type { BulkJobs } from '@ipdata/bulk-jobs';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { emptyRowsBomb } from '../../test/fixtures/hostile-xlsx.js';
import { envelopeOfError } from '../face-a/envelope.js';
import type { CallContext } from '../face-a/face-a-call.js';
import type { UploadedFile } from '../face-a/form-body.js';
import { XLSX_TOO_LARGE_MSG } from './batch-input.js';
import { BATCH_RATE_LIMITED_MSG, BatchService } from './batch.service.js';

/** Face A's answer (envelopeOfError) for the promise's rejection; undefined when it resolves. */
function answered(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (error: unknown) => envelopeOfError(error).envelope,
  );
}

// The order of BatchService's checks on an upload, with its own ports faked (the limiter, the
// bulk jobs, sessions, VIP): the batch limit comes before the file is read.

const context: CallContext = {
  requestId: 'r-1',
  clientIp: '203.0.113.7',
  visitorId: 'v-0123456789abcdef0123456789abcdef',
  plat: 'pc',
  token: undefined,
  accountId: undefined,
  startedAt: 0,
};

const bomb = emptyRowsBomb();

/** The upload with its bytes behind a getter: reading them is counted. */
function counted(data: Buffer): { file: UploadedFile; reads: () => number } {
  let reads = 0;
  const file = {
    filename: 'bomb.xlsx',
    mimeType: 'application/octet-stream',
    get data() {
      reads++;
      return data;
    },
  };
  return { file, reads: () => reads };
}

function service(allowed: boolean) {
  const calls = { take: 0, submit: 0 };
  const jobs = {
    // The engine reads the input as it stores it: a parse error surfaces here.
    submit: async (_owner: unknown, input: Readable) => {
      calls.submit++;
      for await (const _ of input);
      throw new Error('the test has no job engine');
    },
  } as unknown as BulkJobs;
  const batch = new BatchService({
    jobs,
    limiter: {
      take: async () => {
        calls.take++;
        return { allowed, retryAfterSeconds: 60 };
      },
    },
    sessions: { resolve: async () => Promise.reject(new Error('no sessions here')) },
    vip: { isVip: async () => false },
    limits: { maxRows: 10_000, vipMaxRows: 100_000, waitMs: 1_000 },
    logger: pino({ level: 'silent' }),
  });
  return { batch, calls };
}

describe('BatchService upload order', () => {
  it('answers a visitor past the batch limit 429 without reading the hostile file', async () => {
    expect(bomb.length).toBeLessThan(64 * 1024);
    const { batch, calls } = service(false);
    const { file, reads } = counted(bomb);
    const before = process.cpuUsage();
    await expect(answered(batch.fromUpload(context, file, 'upload_ip_xlsx'))).resolves.toMatchObject({
      code: 429,
      msg: BATCH_RATE_LIMITED_MSG,
    });
    const cpu = process.cpuUsage(before);
    process.stdout.write(`429 for the hostile upload: CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms\n`);
    expect(calls.take).toBe(1);
    expect(reads()).toBe(0);
    expect(calls.submit).toBe(0);
  });

  it('counts the call, then refuses the hostile file of a visitor under the limit at its bounds', async () => {
    const { batch, calls } = service(true);
    const { file, reads } = counted(bomb);
    const before = process.cpuUsage();
    await expect(answered(batch.fromUpload(context, file, 'upload_ip_xlsx'))).resolves.toMatchObject({
      code: 400,
      msg: XLSX_TOO_LARGE_MSG,
    });
    const cpu = process.cpuUsage(before);
    process.stdout.write(`400 for the hostile upload: CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms\n`);
    expect(calls.take).toBe(1);
    expect(reads()).toBeGreaterThan(0);
  });

  it('refuses an unknown extension before the limit is taken', async () => {
    const { batch, calls } = service(true);
    const file = { filename: 'a.xls', mimeType: 'application/octet-stream', data: Buffer.alloc(0) };
    await expect(answered(batch.fromUpload(context, file, 'upload_ip_xlsx'))).resolves.toMatchObject({ code: 400 });
    expect(calls.take).toBe(0);
  });
});
