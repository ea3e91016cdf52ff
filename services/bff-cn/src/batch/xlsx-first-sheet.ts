import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { type CpuMeter, TagCounter, XlsxBoundError, type XlsxBounds, type XlsxReadStats } from './xlsx-bounds.js';

/**
 * The steps of exceljs 4.4.0's streaming WorkbookReader that each read one part of the workbook
 * (underscored, so not in its typings). Its own parse() takes the parts in one streaming pass over
 * the zip, in stored order, and under load now and then loses `xl/workbook.xml`, which exceljs
 * itself stores last: a good workbook then fails with "Cannot read properties of undefined
 * (reading 'sheets')" (exceljs issue 3064; 2 of 400 reads here, and three reads in a row once in
 * CI). Here the parts are found through the zip's central directory and read in the order the
 * steps need, so the outcome no longer depends on timing.
 */
interface WorkbookReaderSteps {
  model?: { sheets?: Array<{ rId?: string }> };
  workbookRels?: Array<{ Id?: string; Target?: string }>;
  _parseRels(entry: EventEmitter): Promise<void>;
  _parseWorkbook(entry: EventEmitter): Promise<void>;
  _parseSharedStrings(entry: EventEmitter): AsyncGenerator<unknown>;
  _parseWorksheet(
    iterator: AsyncIterable<unknown>,
    sheetNo: string,
  ): Generator<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

const MAX_ENTRIES = 10_000;
/**
 * The XML parser gets at most this much at a time, and the event loop turns between two slices:
 * another call waits for one slice's parse at most (a few ms), never for the whole part.
 */
const SLICE_BYTES = 4 * 1024;

/** One read: its bounds, its CPU meter and what it counted. */
export interface XlsxRead {
  bounds: XlsxBounds;
  meter: CpuMeter;
  stats: XlsxReadStats;
}

/**
 * The rows of the workbook's first sheet (its first tab), read as they are parsed: a large sheet
 * is never held whole. Stopping the iteration early stops the reading. Throws XlsxBoundError at
 * the first bound of `read` reached (sizes from the zip's directory before a part is opened; rows,
 * cells, shared strings and CPU while reading), another error for a file that is not a readable
 * workbook.
 *
 * On the main thread with a CPU budget rather than on a worker thread: the counted bounds stop
 * the known bombs within a few ms of work, the budget stops anything else past ~500 ms, and the
 * parse runs in 4 KiB slices with a turn of the event loop between them, so other calls wait for
 * one slice at most. A worker would load exceljs per upload (or need a pool with its lifecycle)
 * and still need the same bounds for the CPU figure.
 */
export async function* firstSheetRows(data: Buffer, read: XlsxRead): AsyncGenerator<ExcelJS.Row> {
  const { bounds, meter, stats } = read;
  const zip = await meter.waitFor(openZip(data));
  try {
    const entries = await meter.waitFor(centralDirectory(zip));
    const part = (path: string) => {
      const entry = entries.get(path);
      if (entry === undefined) throw new Error(`no ${path}`);
      return entry;
    };
    // Every slice of every part read counts towards the parts' total.
    const inflated = (slice: Buffer) => {
      stats.inflatedBytes += slice.length;
      if (stats.inflatedBytes > bounds.inflatedBytes) throw new XlsxBoundError('inflatedBytes', bounds.inflatedBytes);
    };
    const small = async (entry: Entry) =>
      new PullStream(slices(await openPart(zip, entry, 'smallPartBytes', bounds, meter), meter, inflated));
    // The constructor only keeps its input; the steps below are given each part themselves.
    const steps = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    }) as unknown as WorkbookReaderSteps;
    const rels = part('xl/_rels/workbook.xml.rels');
    const book = part('xl/workbook.xml');
    await steps._parseRels(await small(rels));
    await steps._parseWorkbook(await small(book));
    const firstTab = steps.model?.sheets?.[0]?.rId;
    const target = steps.workbookRels?.find((rel) => rel.Id === firstTab)?.Target;
    if (target === undefined) throw new Error('no first sheet');
    // A relationship target is relative to xl/, or absolute from the package root.
    const sheet = part(target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    const sheetNo = /sheet(\d+)\.xml$/.exec(target)?.[1] ?? '1';
    const sharedStrings = entries.get('xl/sharedStrings.xml');
    // The large parts' declared sizes, each against its bound and all together against the total,
    // before either is opened (yauzl holds each part to its declared size while inflating).
    declared(sheet, 'sheetBytes', bounds);
    if (sharedStrings !== undefined) declared(sharedStrings, 'sharedStringBytes', bounds);
    const total = [rels, book, sheet, sharedStrings].reduce((sum, entry) => sum + (entry?.uncompressedSize ?? 0), 0);
    if (total > bounds.inflatedBytes) throw new XlsxBoundError('inflatedBytes', bounds.inflatedBytes);
    if (sharedStrings !== undefined) {
      const strings = new TagCounter((tag) => {
        if (tag === 'si' && ++stats.sharedStrings > bounds.sharedStrings) {
          throw new XlsxBoundError('sharedStrings', bounds.sharedStrings);
        }
      });
      const stream = await openPart(zip, sharedStrings, 'sharedStringBytes', bounds, meter);
      const counted = slices(stream, meter, (slice) => {
        stats.sharedStringBytes += slice.length;
        inflated(slice);
        strings.scan(slice);
      });
      for await (const _ of steps._parseSharedStrings(new PullStream(counted)));
    }
    let cellsInRow = 0;
    const tags = new TagCounter((tag) => {
      if (tag === 'row') {
        cellsInRow = 0;
        if (++stats.rows > bounds.rows) throw new XlsxBoundError('rows', bounds.rows);
      } else if (tag === 'c') {
        stats.cells++;
        if (++cellsInRow > bounds.cellsPerRow) throw new XlsxBoundError('cellsPerRow', bounds.cellsPerRow);
        if (stats.cells > bounds.cells) throw new XlsxBoundError('cells', bounds.cells);
      }
    });
    const stream = await openPart(zip, sheet, 'sheetBytes', bounds, meter);
    const counted = slices(stream, meter, (slice) => {
      stats.sheetBytes += slice.length;
      inflated(slice);
      tags.scan(slice);
    });
    // exceljs takes any async iterable of chunks here: it pulls one slice at a time.
    for (const { value: reader } of steps._parseWorksheet(counted, sheetNo)) {
      yield* reader;
    }
  } catch (error) {
    if (error instanceof XlsxBoundError) stats.stoppedBy = error.bound;
    throw error;
  } finally {
    stats.cpuMs = meter.spentMs;
    zip.close();
  }
}

function openZip(data: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    // validateEntrySizes is yauzl's default, stated so it stays on: a part inflating to more
    // bytes than the directory declares fails at the first byte past it.
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

function centralDirectory(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      entries.set(entry.fileName, entry);
      if (entries.size > MAX_ENTRIES) reject(new Error('too many zip entries'));
      else zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

/** Throws when the zip's directory declares the part larger than its bound. */
function declared(entry: Entry, bound: 'smallPartBytes' | 'sharedStringBytes' | 'sheetBytes', bounds: XlsxBounds): void {
  if (entry.uncompressedSize > bounds[bound]) throw new XlsxBoundError(bound, bounds[bound]);
}

/** A part's inflated bytes, refused before any is inflated when the directory declares more than its bound. */
async function openPart(
  zip: ZipFile,
  entry: Entry,
  bound: 'smallPartBytes' | 'sharedStringBytes' | 'sheetBytes',
  bounds: XlsxBounds,
  meter: CpuMeter,
): Promise<Readable> {
  declared(entry, bound, bounds);
  const stream = await meter.waitFor(
    new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (error, opened) => (error ? reject(error) : resolve(opened))),
    ),
  );
  // The stream inflates ahead before the parser first reads it: an error then (a size that lies)
  // must not be an uncaught 'error' event. The stream keeps it, and its reader throws it.
  stream.on('error', () => undefined);
  return stream;
}

/**
 * The part in slices of at most SLICE_BYTES, each counted by `onSlice` (which throws at a bound)
 * and checked against the CPU budget before the parser gets it. The waits (the next inflated
 * chunk, the event loop's turn between slices) are not charged to the meter.
 */
async function* slices(stream: Readable, meter: CpuMeter, onSlice: (slice: Buffer) => void): AsyncGenerator<Buffer> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let chunk: Buffer | undefined;
  let at = 0;
  try {
    for (;;) {
      // Paused: the event loop's turn (other calls run) and the wait for the next inflated chunk.
      meter.pause();
      try {
        meter.check();
        await new Promise((resolve) => setImmediate(resolve));
        if (chunk === undefined || at >= chunk.length) {
          const next = await chunks.next();
          if (next.done === true) return;
          chunk = next.value;
          at = 0;
        }
      } finally {
        meter.resume();
      }
      const slice = chunk.subarray(at, at + SLICE_BYTES);
      at += slice.length;
      onSlice(slice);
      // Charged: the parser's work on the slice, until it asks for the next one.
      yield slice;
    }
  } finally {
    stream.destroy();
  }
}

/**
 * What exceljs's part readers need of a stream (its iterateStream: on, resume, pause), pulling one
 * slice per resume(): a Readable would read ahead, and the meter would then charge the parse's
 * CPU to nobody or other calls' CPU to the parse.
 */
class PullStream extends EventEmitter {
  private pulling = false;

  constructor(private readonly source: AsyncGenerator<Buffer>) {
    super();
  }

  resume(): this {
    if (this.pulling) return this;
    this.pulling = true;
    this.source.next().then(
      (next) => {
        this.pulling = false;
        if (next.done === true) this.emit('end');
        else this.emit('data', next.value);
      },
      (error: unknown) => {
        this.pulling = false;
        this.emit('error', error);
      },
    );
    return this;
  }

  pause(): this {
    return this;
  }
}
