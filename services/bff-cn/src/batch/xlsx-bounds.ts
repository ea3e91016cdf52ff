/**
 * How much of an uploaded workbook may be read, in proportion to the caller's row limit. A zipped
 * sheet compresses about a thousandfold (20 MB of empty rows fit in a 31 KB upload), so the upload
 * size says nothing about the work: every part's inflated size, the rows, the cells and the shared
 * strings are bounded here, and the parse stops at the first bound reached.
 */
export interface XlsxBounds {
  /** `<row>` elements of the sheet, empty ones too. */
  rows: number;
  /** `<c>` elements in one row. */
  cellsPerRow: number;
  /** `<c>` elements of the sheet. */
  cells: number;
  /** Inflated bytes of the sheet part (its size in the zip's directory, checked before it is opened). */
  sheetBytes: number;
  /** Inflated bytes of the shared strings part (held whole in memory: the cells refer to it by index). */
  sharedStringBytes: number;
  /** `<si>` elements of the shared strings part. */
  sharedStrings: number;
  /** Inflated bytes of the workbook and relationships parts. */
  smallPartBytes: number;
  /** Inflated bytes of the parts read, together (their declared sizes summed before the large ones are opened). */
  inflatedBytes: number;
  /** CPU the parse itself may use (CpuMeter), in milliseconds. */
  cpuMs: number;
}

/** Rows on top of the row limit: titles, blank and formatted rows (a thousand cost a few ms). */
export const ROW_ALLOWANCE = 1_000;
/** Excel's own maximum (column XFD): a longer row was not written by a spreadsheet. */
export const MAX_CELLS_PER_ROW = 16_384;
/** Average cells per row allowed over the sheet, and shared strings per row (a 20-column export fits). */
const CELLS_PER_ROW = 32;
/** Inflated sheet bytes per row: 32 cells of ~60 bytes (`<c r="AF10000" t="s"><v>123456</v></c>`). */
const SHEET_BYTES_PER_ROW = 2 * 1024;
const SHARED_STRING_BYTES_PER_ROW = 1024;
/**
 * Inflated bytes per row of the parts together: less than the sheet's and the shared strings'
 * bounds summed, so a file cannot take both to their bound (a 20-column export of distinct texts
 * takes ~1.7 KiB a row in all).
 */
const INFLATED_BYTES_PER_ROW = 2.5 * 1024;
/** What the parts read may inflate to together, whatever the row limit. */
const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/** What a part held whole may take at most, whatever the row limit. */
const MAX_HELD_PART_BYTES = 64 * 1024 * 1024;
const SMALL_PART_BYTES = 2 * 1024 * 1024;
/**
 * 800 ms of CPU per 10,000 rows of the limit (a visitor's): a good single-column sheet of 10,000
 * rows takes ~70-250 ms on the 2-core development machine, so a good file still fits on a machine
 * three times slower, and the budget trips only on what the counted bounds let through and is
 * costly anyway (e.g. 11,000 rows of 32 cells): a hostile file stays under 1 s of CPU in all. A
 * VIP's 100,000 rows get ten times as much.
 */
const CPU_MS_PER_10K_ROWS = 800;

export function xlsxBoundsFor(maxRows: number): XlsxBounds {
  const rows = maxRows + ROW_ALLOWANCE;
  return {
    rows,
    cellsPerRow: MAX_CELLS_PER_ROW,
    cells: rows * CELLS_PER_ROW,
    sheetBytes: rows * SHEET_BYTES_PER_ROW,
    sharedStringBytes: Math.min(MAX_HELD_PART_BYTES, rows * SHARED_STRING_BYTES_PER_ROW),
    sharedStrings: rows * CELLS_PER_ROW,
    smallPartBytes: SMALL_PART_BYTES,
    inflatedBytes: Math.min(MAX_INFLATED_BYTES, rows * INFLATED_BYTES_PER_ROW),
    cpuMs: CPU_MS_PER_10K_ROWS * Math.max(1, maxRows / 10_000),
  };
}

/** A bound was reached: the file is refused as too large (not as unreadable). */
export class XlsxBoundError extends Error {
  constructor(
    readonly bound: keyof XlsxBounds,
    readonly limit: number,
  ) {
    super(`xlsx past its ${bound} bound (${limit})`);
    this.name = 'XlsxBoundError';
  }
}

/** What a read counted: the work done, for the log and the tests. */
export interface XlsxReadStats {
  /** Inflated bytes of the sheet and of the shared strings that reached the parser. */
  sheetBytes: number;
  sharedStringBytes: number;
  /** Inflated bytes of every part read (the small ones too) that reached the parser. */
  inflatedBytes: number;
  rows: number;
  cells: number;
  sharedStrings: number;
  /** The parse's own CPU (CpuMeter) when the read ended. */
  cpuMs: number;
  /** The bound that stopped the read, if one did. */
  stoppedBy: keyof XlsxBounds | undefined;
}

export function emptyStats(): XlsxReadStats {
  return {
    sheetBytes: 0,
    sharedStringBytes: 0,
    inflatedBytes: 0,
    rows: 0,
    cells: 0,
    sharedStrings: 0,
    cpuMs: 0,
    stoppedBy: undefined,
  };
}

/**
 * The CPU of one parse on the main thread: process.cpuUsage() summed over the stretches where the
 * parse runs, leaving out the stretches where it waits (for an inflated chunk, for the event loop's
 * turn, for the consumer of its lines), which is when other calls run. So other calls' CPU is not
 * charged to the upload, and a good workbook is not refused because the server is busy. Nested
 * pauses count once (a depth).
 */
export class CpuMeter {
  private spentUs = 0;
  private depth = 0;
  private since = process.cpuUsage();

  constructor(private readonly budgetMs: number) {}

  pause(): void {
    if (this.depth++ === 0) this.spentUs += usSince(this.since);
  }

  resume(): void {
    if (--this.depth === 0) this.since = process.cpuUsage();
  }

  /** Waits for `promise` without charging the wait. */
  async waitFor<T>(promise: Promise<T>): Promise<T> {
    this.pause();
    try {
      return await promise;
    } finally {
      this.resume();
    }
  }

  get spentMs(): number {
    return (this.spentUs + (this.depth === 0 ? usSince(this.since) : 0)) / 1000;
  }

  /** Throws past the budget; called while paused, it reads no clock. */
  check(): void {
    if (this.spentMs > this.budgetMs) throw new XlsxBoundError('cpuMs', this.budgetMs);
  }
}

function usSince(since: NodeJS.CpuUsage): number {
  const delta = process.cpuUsage(since);
  return delta.user + delta.system;
}

const LT = 0x3c;
/** A start tag's name ends with a blank, `>` or `/`. */
function ends(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x3e || byte === 0x2f || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

export type CountedTag = 'row' | 'c' | 'si';

/**
 * Counts the start tags `<row`, `<c` and `<si` in XML given slice by slice, before the XML parser
 * sees the slice, so a bound stops the read before the work is done (a row of a million cells is
 * refused after 16,385, not parsed whole). A tag cut between two slices is counted once. Not an
 * XML parser: `<c` inside a comment or CDATA counts too, which only errs on the safe side.
 */
export class TagCounter {
  private carry: Buffer | undefined;

  constructor(private readonly onTag: (tag: CountedTag) => void) {}

  scan(slice: Buffer): void {
    const text = this.carry === undefined ? slice : Buffer.concat([this.carry, slice]);
    this.carry = undefined;
    for (let at = text.indexOf(LT); at !== -1; at = text.indexOf(LT, at + 1)) {
      // `<row` and its end are 5 bytes: a shorter tail waits for the next slice.
      if (at + 4 >= text.length) {
        this.carry = Buffer.from(text.subarray(at));
        return;
      }
      const first = text[at + 1];
      if (first === 0x63 /* c */) {
        if (ends(text[at + 2])) this.onTag('c');
      } else if (first === 0x72 /* r */) {
        if (text[at + 2] === 0x6f && text[at + 3] === 0x77 && ends(text[at + 4])) this.onTag('row');
      } else if (first === 0x73 /* s */) {
        if (text[at + 2] === 0x69 && ends(text[at + 3])) this.onTag('si');
      }
    }
  }
}
