import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

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
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(
    iterator: AsyncIterable<unknown>,
    sheetNo: string,
  ): Generator<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

/** Parts read whole into memory (the shared strings are cached for the sheet's cells). */
const MAX_CACHED_PART_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 10_000;

/**
 * The rows of the workbook's first sheet (its first tab), read as they are parsed: a large sheet
 * is never held whole. Stopping the iteration early stops the reading. Throws for a file that is
 * not a readable workbook or whose parts are past the limits.
 */
export async function* firstSheetRows(data: Buffer): AsyncGenerator<ExcelJS.Row> {
  const zip = await openZip(data);
  try {
    const entries = await centralDirectory(zip);
    const part = (path: string) => {
      const entry = entries.get(path);
      if (entry === undefined) throw new Error(`no ${path}`);
      return entry;
    };
    // The constructor only keeps its input; the steps below are given each part themselves.
    const steps = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    }) as unknown as WorkbookReaderSteps;
    await steps._parseRels(await openPart(zip, part('xl/_rels/workbook.xml.rels')));
    await steps._parseWorkbook(await openPart(zip, part('xl/workbook.xml')));
    const sharedStrings = entries.get('xl/sharedStrings.xml');
    if (sharedStrings !== undefined) {
      for await (const _ of steps._parseSharedStrings(await openPart(zip, sharedStrings)));
    }
    const firstTab = steps.model?.sheets?.[0]?.rId;
    const target = steps.workbookRels?.find((rel) => rel.Id === firstTab)?.Target;
    if (target === undefined) throw new Error('no first sheet');
    // A relationship target is relative to xl/, or absolute from the package root.
    const sheet = part(target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    const sheetNo = /sheet(\d+)\.xml$/.exec(target)?.[1] ?? '1';
    for (const { value: reader } of steps._parseWorksheet(await openPart(zip, sheet, Infinity), sheetNo)) {
      yield* reader;
    }
  } finally {
    zip.close();
  }
}

function openZip(data: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true }, (error, zip) => (error ? reject(error) : resolve(zip))),
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

/** A part's inflated bytes; yauzl checks them against the size the directory declares. */
function openPart(zip: ZipFile, entry: Entry, maxBytes = MAX_CACHED_PART_BYTES): Promise<Readable> {
  if (entry.uncompressedSize > maxBytes) {
    return Promise.reject(new Error(`${entry.fileName} is ${entry.uncompressedSize} bytes`));
  }
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}
