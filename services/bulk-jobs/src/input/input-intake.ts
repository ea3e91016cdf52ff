import type { Readable } from 'node:stream';
import { InvalidArgumentError } from '@ipdata/common';
import type { InputFormat } from '../jobs/bulk-job.js';
import { TextFileWriter } from '../files/job-files.js';
import { InputLineReader, type ResolvedInputFormat } from './input-format.js';
import { LineTooLongError, splitLines } from './line-splitter.js';

export interface IntakeLimits {
  maxLines: number;
  maxLineBytes: number;
  maxInputBytes: number;
}

export interface IntakeResult {
  lines: number;
  bytes: number;
  format: ResolvedInputFormat;
}

/**
 * Streams an upload into the job's input file, one value per line, counting as it goes. Memory
 * holds one network buffer and one output block, whatever the size of the upload. Over a limit
 * it throws at once and stops reading without destroying `input`: an HTTP caller can still
 * answer 400 (and should then close the connection, the rest of the body being unread).
 */
export async function writeJobInput(
  input: Readable,
  path: string,
  format: InputFormat,
  limits: IntakeLimits,
): Promise<IntakeResult> {
  const reader = new InputLineReader(format);
  const writer = new TextFileWriter(path);
  let lines = 0;
  let received = 0;
  const counted = async function* (): AsyncGenerator<Buffer | string> {
    for await (const piece of input.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string>) {
      received += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
      if (received > limits.maxInputBytes) {
        throw new InvalidArgumentError(`the upload is larger than ${limits.maxInputBytes} bytes`, {
          reason: 'input_too_large',
          details: { maxInputBytes: String(limits.maxInputBytes) },
        });
      }
      yield piece;
    }
  };
  try {
    for await (const batch of splitLines(counted(), limits.maxLineBytes)) {
      for (const raw of batch) {
        const value = reader.read(raw);
        if (value === undefined) continue;
        if (++lines > limits.maxLines) {
          throw new InvalidArgumentError(`the upload has more than ${limits.maxLines} lines`, {
            reason: 'too_many_lines',
            details: { maxLines: String(limits.maxLines) },
          });
        }
        await writer.writeLine(value);
      }
    }
    await writer.close();
  } catch (error) {
    await writer.discard();
    if (error instanceof LineTooLongError) {
      throw new InvalidArgumentError(`a line of the upload is longer than ${error.maxLineBytes} bytes`, {
        reason: 'line_too_long',
        details: { maxLineBytes: String(error.maxLineBytes) },
      });
    }
    throw error;
  }
  if (lines === 0) {
    throw new InvalidArgumentError('the upload has no addresses: send one per line, as CSV or as NDJSON', {
      reason: 'empty_input',
    });
  }
  return { lines, bytes: writer.bytes, format: reader.resolvedFormat };
}
