import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import type { IpReport } from './ip-report.js';
import { ATTRIBUTION, reportSections, type ReportSection } from './report-sections.js';
import { woffToSfnt } from './woff-font.js';

const require = createRequire(import.meta.url);

let fonts: { zh: Buffer; latin: Buffer } | undefined;

/**
 * Noto Sans SC (SIL OFL 1.1) from @fontsource: the Simplified Chinese subset and the Latin one,
 * read once. The container image keeps only these two of the package's files
 * (infra/image/prune.sh; `make image-check` loads them from the pruned tree).
 */
export function reportFonts(): { zh: Buffer; latin: Buffer } {
  if (fonts !== undefined) return fonts;
  const dir = join(dirname(require.resolve('@fontsource/noto-sans-sc/package.json')), 'files');
  fonts = {
    zh: woffToSfnt(readFileSync(join(dir, 'noto-sans-sc-chinese-simplified-400-normal.woff'))),
    latin: woffToSfnt(readFileSync(join(dir, 'noto-sans-sc-latin-400-normal.woff'))),
  };
  return fonts;
}

type FontName = 'zh' | 'latin';
interface GlyphFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

const PAGE = { margin: 50, width: 595.28, height: 841.89 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin;
const COLOURS = { title: '#1f3b63', text: '#222222', muted: '#666666', rule: '#c8d0da', head: '#eef2f7' };
const CELL_PADDING = 5;

/**
 * The report as a PDF: title, overview and one table per section, drawn with the embedded Noto
 * Sans SC. pdfkit embeds only the glyphs used (a subset), so a report stays in the tens of KB
 * although the Chinese font file is 1.5 MB.
 */
export function renderReportPdf(report: IpReport): Promise<Buffer> {
  const { zh, latin } = reportFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    lang: 'zh-CN',
    info: { Title: `IP 地址报告 ${report.ip}`, Subject: 'IP address report', Creator: 'ipdata face A' },
  });
  doc.registerFont('zh', zh);
  doc.registerFont('latin', latin);
  const glyphs = { zh: loadedFont(doc, 'zh'), latin: loadedFont(doc, 'latin') };
  const writer = new RunWriter(doc, glyphs);
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  writer.write(`IP 地址报告 · ${report.ip}`, PAGE.margin, PAGE.margin, { size: 20, colour: COLOURS.title, width: CONTENT_WIDTH });
  let y = doc.y + 4;
  writer.write(`生成时间 ${report.generated_at}    数据版本 ${report.dataset_version ?? '—'}`, PAGE.margin, y, {
    size: 9,
    colour: COLOURS.muted,
    width: CONTENT_WIDTH,
  });
  y = doc.y + 14;
  for (const section of reportSections(report)) y = drawSection(doc, writer, section, y);
  if (y + 40 > BOTTOM) {
    doc.addPage();
    y = PAGE.margin;
  }
  writer.write(ATTRIBUTION, PAGE.margin, y + 6, { size: 8, colour: COLOURS.muted, width: CONTENT_WIDTH });
  doc.end();
  return done;
}

function drawSection(doc: PDFKit.PDFDocument, writer: RunWriter, section: ReportSection, top: number): number {
  const widths = columnWidths(section.columns.length);
  // Keep a section's title with its first rows.
  let y = top;
  if (y + 60 > BOTTOM) {
    doc.addPage();
    y = PAGE.margin;
  }
  writer.write(section.title, PAGE.margin, y, { size: 13, colour: COLOURS.title, width: CONTENT_WIDTH });
  y = doc.y + 4;
  y = drawRow(doc, writer, section.columns, widths, y, true);
  for (const row of section.rows) y = drawRow(doc, writer, row, widths, y, false);
  return y + 14;
}

function columnWidths(count: number): number[] {
  if (count === 1) return [CONTENT_WIDTH];
  const first = 110;
  const rest = (CONTENT_WIDTH - first) / (count - 1);
  return [first, ...Array.from({ length: count - 1 }, () => rest)];
}

function drawRow(
  doc: PDFKit.PDFDocument,
  writer: RunWriter,
  cells: string[],
  widths: number[],
  top: number,
  head: boolean,
): number {
  const size = head ? 9.5 : 9.5;
  const height =
    Math.max(...cells.map((cell, i) => writer.height(cell, (widths[i] as number) - 2 * CELL_PADDING, size))) + 2 * CELL_PADDING;
  let y = top;
  if (y + height > BOTTOM) {
    doc.addPage();
    y = PAGE.margin;
  }
  let x = PAGE.margin;
  cells.forEach((cell, i) => {
    const width = widths[i] as number;
    if (head) doc.rect(x, y, width, height).fill(COLOURS.head);
    doc.lineWidth(0.5).rect(x, y, width, height).stroke(COLOURS.rule);
    writer.write(cell, x + CELL_PADDING, y + CELL_PADDING, {
      size,
      colour: head ? COLOURS.title : COLOURS.text,
      width: width - 2 * CELL_PADDING,
    });
    x += width;
  });
  return y + height;
}

/** pdfkit's fontkit font behind a registered name (pdfkit keeps it as `_font.font`; no public accessor). */
function loadedFont(doc: PDFKit.PDFDocument, name: FontName): GlyphFont {
  doc.font(name);
  return (doc as unknown as { _font: { font: GlyphFont } })._font.font;
}

/**
 * Writes text in runs of one font each: the Chinese subset first, the Latin subset for a
 * character the Chinese one lacks. (The Chinese subset of Noto Sans SC carries ASCII too, so
 * most text is one run.)
 */
class RunWriter {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly glyphs: Record<FontName, GlyphFont>,
  ) {}

  runs(text: string): Array<{ font: FontName; text: string }> {
    const runs: Array<{ font: FontName; text: string }> = [];
    for (const char of text) {
      const codePoint = char.codePointAt(0) as number;
      const font: FontName =
        this.glyphs.zh.hasGlyphForCodePoint(codePoint) || !this.glyphs.latin.hasGlyphForCodePoint(codePoint) ? 'zh' : 'latin';
      const last = runs.at(-1);
      if (last !== undefined && last.font === font) last.text += char;
      else runs.push({ font, text: char });
    }
    return runs;
  }

  height(text: string, width: number, size: number): number {
    return this.doc.font('zh').fontSize(size).heightOfString(text, { width });
  }

  write(text: string, x: number, y: number, options: { size: number; colour: string; width: number }): void {
    const runs = this.runs(text);
    const doc = this.doc.fontSize(options.size).fillColor(options.colour);
    runs.forEach((run, i) => {
      const continued = i < runs.length - 1;
      doc.font(run.font);
      if (i === 0) doc.text(run.text, x, y, { width: options.width, continued });
      else doc.text(run.text, { continued });
    });
  }
}
