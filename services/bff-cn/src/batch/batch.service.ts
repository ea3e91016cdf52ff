import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { BulkJobs, InputFormat } from '@ipdata/bulk-jobs';
import { InvalidArgumentError, ResourceExhaustedError, UnavailableError, isDomainError, type Logger } from '@ipdata/common';
import { rateLimitKey } from '@ipdata/common/ip';
import type { CallContext } from '../face-a/face-a-call.js';
import type { SessionResolver } from '../face-a/face-a.dispatcher.js';
import type { FileAnswer } from '../face-a/file-answer.js';
import type { UploadedFile } from '../face-a/form-body.js';
import type { VisitorRateLimiter } from '../lookups/lookup.ports.js';
import { optionalAccount } from '../visits/optional-account.js';
import { splitIpsText, uploadKindOf, xlsxLines } from './batch-input.js';
import { decodeRow, type BatchRow } from './batch-rows.js';
import { writeBatchXlsx, XLSX_CONTENT_TYPE } from './batch-xlsx.js';
import type { BatchJobContext } from './batch.processor.js';
import type { VipCheck } from './batch.ports.js';
import { emptyStats, type XlsxReadStats } from './xlsx-bounds.js';

export const BATCH_RATE_LIMITED_MSG = '批量查询过于频繁，请稍后再试';

export interface BatchLimits {
  /** Rows a visitor (or a logged-in user without VIP) may send at once. */
  maxRows: number;
  /** Rows an account with an active VIP may send at once. */
  vipMaxRows: number;
  /** How long a call waits for its job before answering 503. */
  waitMs: number;
}

/** The caller as the batch limits see it. */
interface Caller {
  accountId: string;
  vip: boolean;
  maxRows: number;
}

export interface BatchServiceDeps {
  jobs: BulkJobs;
  limiter: VisitorRateLimiter;
  sessions: SessionResolver;
  vip: VipCheck;
  limits: BatchLimits;
  logger: Logger;
}

/**
 * Face A's batch lookups: the input becomes a bulk job of the shared engine (@ipdata/bulk-jobs;
 * owner = the account, else the visitor), BatchLookupProcessor looks it up chunk by chunk, the
 * call waits for the job's end and answers its rows as an xlsx in input order.
 */
export class BatchService {
  constructor(private readonly deps: BatchServiceDeps) {}

  /** `ips`: the text field of query_ip_batch_zone. */
  async fromText(context: CallContext, ips: string, endpoint: string): Promise<FileAnswer> {
    const lines = splitIpsText(ips);
    if (lines.length === 0) throw new InvalidArgumentError('请输入IP 地址');
    const caller = await this.admit(context);
    return this.run(context, caller, endpoint, 'lines', Readable.from([lines.join('\n')]), 'text');
  }

  /**
   * `file`: the upload of upload_ip_xlsx (.xlsx: first column or the IP column; .csv/.txt: the
   * engine's rules). What needs no reading comes first: the extension, the upload's size (the form
   * parser, UPLOAD_MAX_BYTES) and the batch limit, so a refused visitor's file is never parsed;
   * then an .xlsx is read within bounds derived from the caller's row limit (xlsx-bounds.ts).
   */
  async fromUpload(context: CallContext, file: UploadedFile, endpoint: string): Promise<FileAnswer> {
    const kind = uploadKindOf(file);
    const caller = await this.admit(context);
    if (kind === 'xlsx') {
      const stats = emptyStats();
      try {
        const lines = xlsxLines(file.data, { maxRows: caller.maxRows, stats });
        // Read before the job is created: a file that is not a workbook is refused without one.
        const first = await lines.next();
        const all = async function* (): AsyncGenerator<string> {
          if (first.done !== true) yield `${first.value}\n`;
          for await (const line of lines) yield `${line.replace(/[\r\n]+/g, ' ')}\n`;
        };
        return await this.run(context, caller, endpoint, 'lines', Readable.from(all()), 'file', stats);
      } catch (error) {
        if (stats.stoppedBy !== undefined) {
          this.deps.logger.warn(
            { requestId: context.requestId, bytes: file.data.length, ...stats },
            'xlsx upload past its bounds',
          );
        }
        throw error;
      }
    }
    return this.run(context, caller, endpoint, 'auto', Readable.from([file.data]), 'file');
  }

  /** Who calls (account, VIP, so the row limit), then the batch limit: 429 before any input is read. */
  private async admit(context: CallContext): Promise<Caller> {
    const accountId = await optionalAccount(context, this.deps.sessions);
    const vip = accountId !== '' && (await this.deps.vip.isVip(accountId));
    const maxRows = vip ? this.deps.limits.vipMaxRows : this.deps.limits.maxRows;
    await this.limit(context);
    return { accountId, vip, maxRows };
  }

  private async run(
    context: CallContext,
    caller: Caller,
    endpoint: string,
    inputFormat: InputFormat,
    input: Readable,
    source: 'text' | 'file',
    xlsx?: XlsxReadStats,
  ): Promise<FileAnswer> {
    const { accountId, vip, maxRows } = caller;
    const ownerId = accountId !== '' ? accountId : context.visitorId;
    const jobContext: BatchJobContext = { visitorId: context.visitorId, accountId, plat: context.plat, endpoint };
    const t0 = performance.now();
    let job;
    try {
      job = await this.deps.jobs.submit({ id: ownerId }, input, {
        resultFormat: 'ndjson',
        inputFormat,
        context: jobContext,
        maxLines: maxRows,
      });
    } catch (error) {
      throw this.refusal(error, { maxRows, vip, source });
    }
    const t1 = performance.now();
    let ended;
    try {
      ended = await this.deps.jobs.waitForEnd(job.id, ownerId, { timeoutMs: this.deps.limits.waitMs });
    } catch (error) {
      if (isDomainError(error) && error.reason === 'job_wait_timeout') {
        this.deps.logger.warn({ jobId: job.id, requestId: context.requestId }, 'batch job did not end in time');
        throw new UnavailableError('批量查询繁忙，请稍后再试', { expose: true });
      }
      throw error;
    }
    if (ended.state !== 'completed') {
      this.deps.logger.error({ jobId: job.id, state: ended.state, message: ended.message }, 'batch job did not complete');
      throw new UnavailableError('批量查询失败，请稍后再试', { expose: true });
    }
    const t2 = performance.now();
    const result = await this.deps.jobs.openResult(job.id, ownerId);
    const body = await writeBatchXlsx(rowsOf(result.stream));
    const ms = (from: number, to: number) => Math.round(to - from);
    this.deps.logger.info(
      {
        jobId: job.id,
        rows: ended.progress.totalLines,
        submitMs: ms(t0, t1),
        runMs: ms(t1, t2),
        xlsxMs: ms(t2, performance.now()),
        bytes: body.length,
        // The upload's parse against its CPU budget (xlsx-bounds.ts).
        ...(xlsx === undefined ? {} : { uploadParseCpuMs: Math.round(xlsx.cpuMs), uploadRows: xlsx.rows }),
      },
      'batch answered',
    );
    return { contentType: XLSX_CONTENT_TYPE, filename: `IP批量查询结果-${ended.progress.totalLines}.xlsx`, body };
  }

  /** The per-visitor limit on batch calls (its own counter): past it, 429; Redis down fails open (logged). */
  private async limit(context: CallContext): Promise<void> {
    const key = rateLimitKey(context.clientIp);
    if (key === undefined) throw new InvalidArgumentError('无法识别您的 IP 地址');
    let decision;
    try {
      decision = await this.deps.limiter.take(key);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'batch rate limit unavailable; batch allowed');
      return;
    }
    if (!decision.allowed) throw new ResourceExhaustedError(BATCH_RATE_LIMITED_MSG);
  }

  /** The engine's intake refusals in face A's words. */
  private refusal(error: unknown, about: { maxRows: number; vip: boolean; source: 'text' | 'file' }): unknown {
    if (!isDomainError(error) || error.kind !== 'invalid_argument') return error;
    const { maxRows, vip, source } = about;
    switch (error.reason) {
      case 'too_many_lines':
        return new InvalidArgumentError(
          vip || maxRows >= this.deps.limits.vipMaxRows
            ? `单次最多查询 ${maxRows} 个 IP，请分批查询`
            : `单次最多查询 ${maxRows} 个 IP，请分批查询（VIP 会员单次可查询 ${this.deps.limits.vipMaxRows} 个）`,
        );
      case 'empty_input':
        return new InvalidArgumentError(source === 'file' ? '文件中没有 IP 地址' : '请输入IP 地址');
      case 'line_too_long':
        return new InvalidArgumentError('文件中有过长的行，请每行填写一个 IP 地址');
      case 'input_too_large':
        return new InvalidArgumentError('上传文件过大');
      default:
        return error;
    }
  }
}

async function* rowsOf(stream: Readable): AsyncGenerator<BatchRow> {
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (line !== '') yield decodeRow(line);
  }
}
