const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineTooLongError extends Error {
  constructor(readonly maxLineBytes: number) {
    super(`a line is longer than ${maxLineBytes} bytes`);
  }
}

/**
 * Splits a byte stream into lines (LF or CRLF; a last line without terminator counts) and yields
 * them in batches (a CR before the LF is dropped and not counted against the limit), one batch per input buffer, so a 1,000,000-line upload costs one await per
 * network chunk instead of one per line. Only the unfinished tail of a line is carried over, and
 * it is bounded by `maxLineBytes`, so memory stays flat whatever the input.
 */
export async function* splitLines(source: AsyncIterable<Buffer | string>, maxLineBytes: number): AsyncGenerator<string[]> {
  let tail: Buffer[] = [];
  let tailBytes = 0;
  for await (const piece of source) {
    const buffer = typeof piece === 'string' ? Buffer.from(piece) : piece;
    const lines: string[] = [];
    let start = 0;
    for (let nl = buffer.indexOf(NEWLINE, start); nl !== -1; nl = buffer.indexOf(NEWLINE, start)) {
      if (tailBytes > 0) {
        tail.push(buffer.subarray(start, nl));
        lines.push(decodeLine(Buffer.concat(tail), maxLineBytes));
        tail = [];
        tailBytes = 0;
      } else {
        lines.push(decodeLine(buffer, maxLineBytes, start, nl));
      }
      start = nl + 1;
    }
    if (start < buffer.length) {
      tailBytes += buffer.length - start;
      // +1: the CR of a CRLF may still come; the exact check is made when the line ends.
      if (tailBytes > maxLineBytes + 1) throw new LineTooLongError(maxLineBytes);
      // Copy: a view would pin the whole network buffer until the line ends.
      tail.push(Buffer.from(buffer.subarray(start)));
    }
    if (lines.length > 0) yield lines;
  }
  if (tailBytes > 0) yield [decodeLine(Buffer.concat(tail), maxLineBytes)];
}

function decodeLine(buffer: Buffer, maxLineBytes: number, start = 0, end = buffer.length): string {
  const last = end > start && buffer[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
  if (last - start > maxLineBytes) throw new LineTooLongError(maxLineBytes);
  return buffer.toString('utf8', start, last);
}
