import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { deflateBomb, FIRST_ROW, MAIN, SHEET_HEAD, SHEET_TAIL, repeated, workbook } from '../../test/fixtures/hostile-xlsx.js';
import { envelopeOfError, type Envelope } from '../face-a/envelope.js';
import { XLSX_TOO_LARGE_MSG, xlsxLines } from './batch-input.js';
import { CpuMeter, emptyStats, TagCounter, XlsxBoundError, xlsxBoundsFor, type XlsxReadStats } from './xlsx-bounds.js';

// Hostile workbooks written by hand (a zip of the five parts exceljs reads), each refused at its
// bound. The assertions count the work done (bytes inflated, rows and cells seen), and the CPU
// each one cost (process.cpuUsage, not the wall clock) against the issue's 1 s: the bounds stop
// them after ~5-200 ms, the unbounded read took 18 s.

const VISITOR_ROWS = 10_000;
const bounds = xlsxBoundsFor(VISITOR_ROWS);
/** Slices are 4 KiB: a bound is seen within the slice that crosses it. */
const SLICE = 4 * 1024;

const MB = 1024 * 1024;
/** What a hostile file may cost in all (issue 51): CPU, generous for a loaded machine. */
const HOSTILE_CPU_MS = 1_000;

/** Reads the whole file as the service does; face A's answer for the error, the stats and the CPU it cost. */
async function read(file: Buffer, maxRows = VISITOR_ROWS) {
  const stats = emptyStats();
  const before = process.cpuUsage();
  let lines = 0;
  let error: Envelope | undefined;
  try {
    for await (const _ of xlsxLines(file, { maxRows, stats })) lines++;
  } catch (caught) {
    error = envelopeOfError(caught).envelope;
  }
  const cpu = process.cpuUsage(before);
  return { error, stats, lines, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function report(what: string, file: Buffer, result: { stats: XlsxReadStats; cpuMs: number }) {
  const { stats } = result;
  process.stdout.write(
    `${what}: ${file.length} B upload ${stats.stoppedBy === undefined ? 'read to its end' : `refused by ${stats.stoppedBy}`} ` +
      `after ${stats.inflatedBytes} B inflated (${stats.sheetBytes} B of sheet, ` +
      `${stats.sharedStringBytes} B of shared strings), ${stats.rows} rows, ${stats.cells} cells, ` +
      `${stats.sharedStrings} strings; CPU ${result.cpuMs.toFixed(0)} ms (parse ${stats.cpuMs.toFixed(0)} ms)\n`,
  );
}

const tooLarge = { code: 400, msg: XLSX_TOO_LARGE_MSG };

describe('xlsx bounds', () => {
  it('derives the bounds from the row limit: the limit plus 1,000 rows, cells and bytes per row, 500 ms per 10,000', () => {
    expect(bounds).toMatchObject({ rows: 11_000, cellsPerRow: 16_384, cells: 352_000, sharedStrings: 352_000, cpuMs: 800 });
    expect(bounds.sheetBytes).toBe(11_000 * 2048);
    expect(bounds.inflatedBytes).toBe(11_000 * 2560);
    expect(xlsxBoundsFor(100_000)).toMatchObject({
      rows: 101_000,
      cpuMs: 8_000,
      sharedStringBytes: 64 * MB,
      inflatedBytes: 101_000 * 2560,
    });
  });

  it('stops 20 MB of empty rows (a ~40 KB upload) at the row bound, counting the empty ones', async () => {
    const file = workbook(repeated(SHEET_HEAD + FIRST_ROW, '<row r="2"/>', 20 * MB, SHEET_TAIL));
    expect(file.length).toBeLessThan(64 * 1024);
    const result = await read(file);
    report('20 MB of empty rows', file, result);
    expect(result.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    expect(result.error).toMatchObject(tooLarge);
    expect(result.stats.stoppedBy).toBe('rows');
    expect(result.stats.rows).toBe(bounds.rows + 1);
    // What was inflated: the rows up to the bound and the rest of that slice, not 20 MB.
    expect(result.stats.sheetBytes).toBeLessThanOrEqual(SHEET_HEAD.length + FIRST_ROW.length + 12 * bounds.rows + SLICE);
  });

  it('refuses a shared strings part declared past its bound before inflating any of it', async () => {
    const strings = repeated(`<sst xmlns="${MAIN}">`, '<si><t>x</t></si>', bounds.sharedStringBytes + 1, '</sst>');
    const file = workbook(Buffer.from(SHEET_HEAD + FIRST_ROW + SHEET_TAIL), strings);
    const result = await read(file);
    report('shared strings past their bytes', file, result);
    expect(result.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    expect(result.error).toMatchObject(tooLarge);
    expect(result.stats).toMatchObject({ stoppedBy: 'sharedStringBytes', sharedStringBytes: 0, sharedStrings: 0 });
  });

  it('stops a shared strings part of millions of empty strings at the count bound', async () => {
    const strings = repeated(`<sst xmlns="${MAIN}">`, '<si/>', 10 * MB, '</sst>');
    const file = workbook(Buffer.from(SHEET_HEAD + FIRST_ROW + SHEET_TAIL), strings);
    const result = await read(file);
    report('2 million shared strings', file, result);
    expect(result.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    expect(result.error).toMatchObject(tooLarge);
    expect(result.stats.stoppedBy).toBe('sharedStrings');
    expect(result.stats.sharedStrings).toBe(bounds.sharedStrings + 1);
    expect(result.stats.sharedStringBytes).toBeLessThanOrEqual(100 + 5 * bounds.sharedStrings + SLICE);
    // The sheet was never opened.
    expect(result.stats.sheetBytes).toBe(0);
  });

  it('stops a row of a million and a half cells at 16,385 cells, before the row is parsed', async () => {
    const file = workbook(repeated(`${SHEET_HEAD}<row r="1">`, '<c r="A1"/>', 16 * MB, `</row>${SHEET_TAIL}`));
    const result = await read(file);
    report('one row of 1.5 million cells', file, result);
    expect(result.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    expect(result.error).toMatchObject(tooLarge);
    expect(result.stats).toMatchObject({ stoppedBy: 'cellsPerRow', rows: 1, cells: bounds.cellsPerRow + 1 });
    expect(result.stats.sheetBytes).toBeLessThanOrEqual(SHEET_HEAD.length + 11 * (bounds.cellsPerRow + 1) + SLICE);
  });

  it('stops a part inflating past the size the zip declares at the declared size (yauzl checks it)', async () => {
    const sheet = repeated(SHEET_HEAD + FIRST_ROW, '<row r="2"/>', 20 * MB, SHEET_TAIL);
    const file = workbook(sheet, undefined, { 'xl/worksheets/sheet1.xml': 1_000 });
    const result = await read(file);
    report('a sheet declaring 1,000 B that inflates to 20 MB', file, result);
    expect(result.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    // A zip that lies about a size is a broken file: the user can only save it again.
    expect(result.error).toMatchObject({ code: 400, msg: '无法读取 Excel 文件，请上传 .xlsx 格式的文件' });
    expect(result.stats.sheetBytes).toBeLessThanOrEqual(1_000);
    expect(result.stats.rows).toBeLessThan(100);
  });

  it('refuses a sheet declared past its bytes before inflating any of it', async () => {
    const sheet = repeated(SHEET_HEAD + FIRST_ROW, '<row r="2"/>', bounds.sheetBytes + 1, SHEET_TAIL);
    const result = await read(workbook(sheet));
    expect(result.error).toMatchObject(tooLarge);
    expect(result.stats).toMatchObject({ stoppedBy: 'sheetBytes', sheetBytes: 0, rows: 0 });
  });

  it('stops 11,500 rows of addresses at the row bound', async () => {
    const rows = Array.from(
      { length: 11_500 },
      (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>1.1.1.1</t></is></c></row>`,
    );
    const file = workbook(Buffer.from(SHEET_HEAD + rows.join('') + SHEET_TAIL));
    const result = await read(file);
    report('11,500 rows of addresses', file, result);
    expect(result.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    expect(result.error).toMatchObject(tooLarge);
    expect(result.stats).toMatchObject({ stoppedBy: 'rows', rows: bounds.rows + 1 });
    // Stopped while reading: the lines before the bound were handed on, not the rest.
    expect(result.lines).toBeLessThanOrEqual(bounds.rows);
  });

  it.each(['xl/_rels/workbook.xml.rels', 'xl/workbook.xml'])(
    'refuses a deflate bomb in %s declared truthfully before inflating it, and stops one declaring 1,000 B there',
    async (name) => {
      const truthful = workbook(Buffer.from(SHEET_HEAD + FIRST_ROW + SHEET_TAIL), undefined, {}, [deflateBomb(name, 32 * MB)]);
      expect(truthful.length).toBeLessThan(64 * 1024);
      const refused = await read(truthful);
      report(`32 MB bomb in ${name}`, truthful, refused);
      expect(refused.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
      expect(refused.error).toMatchObject(tooLarge);
      expect(refused.stats.stoppedBy).toBe('smallPartBytes');
      // Nothing of the bomb inflated: at most the relationships part before it (a few hundred bytes).
      expect(refused.stats.inflatedBytes).toBeLessThan(1_000);
      const lying = workbook(Buffer.from(SHEET_HEAD + FIRST_ROW + SHEET_TAIL), undefined, {}, [
        deflateBomb(name, 32 * MB, 1_000),
      ]);
      const stopped = await read(lying);
      expect(stopped.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
      expect(stopped.error).toMatchObject({ code: 400, msg: '无法读取 Excel 文件，请上传 .xlsx 格式的文件' });
      expect(stopped.stats.inflatedBytes).toBeLessThanOrEqual(2_000);
    },
  );

  it('never inflates a bomb in a part it does not read (styles, document properties, media)', async () => {
    const parts = ['xl/styles.xml', 'docProps/app.xml', 'xl/media/image1.png'].map((name) => deflateBomb(name, 32 * MB));
    const file = workbook(Buffer.from(SHEET_HEAD + FIRST_ROW + SHEET_TAIL), undefined, {}, parts);
    expect(file.length).toBeLessThan(160 * 1024);
    const result = await read(file);
    report('three 32 MB bombs in unread parts', file, result);
    expect(result.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    expect(result.error).toBeUndefined();
    expect(result.lines).toBe(1);
    expect(result.stats.inflatedBytes).toBeLessThan(4_096);
  });

  it('refuses a sheet and shared strings each under its bound but past the total, before inflating either', async () => {
    // 20 MB of sheet (bound 22.5 MB) and 9 MB of strings (bound 11.3 MB): 29 MB, the total 28.2 MB.
    const sheet = repeated(SHEET_HEAD + FIRST_ROW, '<row r="2"/>', 20 * MB, SHEET_TAIL);
    const strings = repeated(`<sst xmlns="${MAIN}">`, '<si><t>x</t></si>', 9 * MB, '</sst>');
    expect(sheet.length).toBeLessThan(bounds.sheetBytes);
    expect(strings.length).toBeLessThan(bounds.sharedStringBytes);
    const file = workbook(sheet, strings);
    const result = await read(file);
    report('sheet and shared strings past the total', file, result);
    expect(result.cpuMs).toBeLessThan(HOSTILE_CPU_MS);
    expect(result.error).toMatchObject(tooLarge);
    expect(result.stats).toMatchObject({ stoppedBy: 'inflatedBytes', sheetBytes: 0, sharedStringBytes: 0, rows: 0 });
  });

  it('reads a good workbook at the row limit to its end, counting its rows, cells and CPU', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('a');
    sheet.addRow(['IP地址', '备注']);
    for (let row = 0; row < VISITOR_ROWS; row++) sheet.addRow([`10.0.${row >> 8}.${row & 255}`, `n${row}`]);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const result = await read(file);
    process.stdout.write(
      `good workbook of 10,000 rows: CPU ${result.cpuMs.toFixed(0)} ms (parse ${result.stats.cpuMs.toFixed(0)} ms)\n`,
    );
    expect(result.error).toBeUndefined();
    expect(result.lines).toBe(VISITOR_ROWS);
    expect(result.stats).toMatchObject({ stoppedBy: undefined, rows: VISITOR_ROWS + 1, cells: 2 * (VISITOR_ROWS + 1) });
    expect(result.stats.sharedStrings).toBe(2 * (VISITOR_ROWS + 1));
    expect(result.stats.cpuMs).toBeGreaterThan(0);
  });
});

describe('TagCounter', () => {
  it('counts <row, <c and <si start tags once, also when a slice cuts one, and nothing else', () => {
    const seen: string[] = [];
    const counter = new TagCounter((tag) => seen.push(tag));
    const xml = '<cols><col min="1"/></cols><row r="1"><c r="A1"><v>1</v></c><c/></row><row>\n<c\tr="B2"></c></row><si/><sst>';
    for (let cut = 0; cut <= xml.length; cut++) {
      seen.length = 0;
      const fresh = new TagCounter((tag) => seen.push(tag));
      fresh.scan(Buffer.from(xml.slice(0, cut)));
      fresh.scan(Buffer.from(xml.slice(cut)));
      expect(seen, `cut at ${cut}`).toEqual(['row', 'c', 'c', 'row', 'c', 'si']);
    }
    // One byte at a time.
    seen.length = 0;
    for (const byte of Buffer.from(xml)) counter.scan(Buffer.from([byte]));
    expect(seen).toEqual(['row', 'c', 'c', 'row', 'c', 'si']);
  });
});

describe('CpuMeter', () => {
  /** Spins until the process has used `ms` more CPU. */
  function burn(ms: number) {
    const start = process.cpuUsage();
    for (;;) {
      const used = process.cpuUsage(start);
      if (used.user + used.system >= ms * 1000) return;
    }
  }

  it('charges the CPU used while running, not while paused (nested pauses count once), and throws past its budget', () => {
    const meter = new CpuMeter(60);
    burn(30);
    meter.pause();
    meter.pause();
    burn(100);
    meter.resume();
    burn(100);
    meter.resume();
    expect(meter.spentMs).toBeGreaterThanOrEqual(30);
    expect(meter.spentMs).toBeLessThan(130);
    meter.check();
    burn(40);
    expect(() => meter.check()).toThrow(XlsxBoundError);
  });
});
