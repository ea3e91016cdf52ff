import ExcelJS from 'exceljs';
import type { IpReport } from './ip-report.js';
import { ATTRIBUTION, reportSections } from './report-sections.js';

const TITLE_FILL = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEEF2F7' } } as const;

/** The report as one worksheet: a title row, then each section's title, column heads and rows. */
export async function renderReportXlsx(report: IpReport): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'ipdata face A';
  workbook.created = new Date(report.generated_at);
  const sheet = workbook.addWorksheet('IP 报告');
  sheet.columns = [{ width: 18 }, { width: 42 }, { width: 42 }];
  const title = sheet.addRow([`IP 地址报告 · ${report.ip}`]);
  title.font = { size: 16, bold: true };
  for (const section of reportSections(report)) {
    sheet.addRow([]);
    const heading = sheet.addRow([section.title]);
    heading.font = { size: 12, bold: true };
    const columns = sheet.addRow(section.columns);
    columns.font = { bold: true };
    columns.eachCell((cell) => {
      cell.fill = TITLE_FILL;
    });
    for (const row of section.rows) sheet.addRow(row).alignment = { wrapText: true, vertical: 'top' };
  }
  sheet.addRow([]);
  sheet.addRow([ATTRIBUTION]).font = { size: 9, italic: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
