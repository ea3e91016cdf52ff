import { defineCall, type FaceACall } from '../face-a/face-a-call.js';
import type { FieldSpec } from '../face-a/input-schema.js';
import { reportFileName } from '../report/ip-report.js';
import type { IpReports } from '../report/ip-reports.js';
import type { ReportExample } from '../report/report-examples.js';
import { renderReportPdf } from '../report/report-pdf.js';
import { renderReportXlsx } from '../report/report-xlsx.js';

export interface ReportCallsDeps {
  reports: IpReports;
  examples: readonly ReportExample[];
}

const IP = { kind: 'ip', label: 'IP 地址', required: true } as const satisfies FieldSpec;
const FORMAT = { kind: 'enum', label: '文件格式', required: false, values: ['pdf', 'xlsx'] } as const satisfies FieldSpec;

const CONTENT_TYPES = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** The IP report page: the report as JSON, as a PDF or xlsx download, and the example addresses. */
export function reportCalls(deps: ReportCallsDeps): FaceACall[] {
  return [
    defineCall({
      name: 'report_generate',
      path: '/v1/report_generate',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { ip: IP },
      handle: async (context, { ip }) => ({ data: await deps.reports.generate(context, ip, 'report_generate') }),
    }),
    defineCall({
      name: 'report_generate_file',
      path: '/v1/report_generate_file',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { ip: IP, format: FORMAT },
      handle: async (context, { ip, format = 'pdf' }) => {
        const report = await deps.reports.generate(context, ip, 'report_generate_file');
        const body = format === 'xlsx' ? await renderReportXlsx(report) : await renderReportPdf(report);
        return { data: null, file: { contentType: CONTENT_TYPES[format], filename: reportFileName(report, format), body } };
      },
    }),
    defineCall({
      name: 'report_generate_examples',
      path: '/v1/report_generate_examples',
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: {},
      // Checked and canonical since start (loadReportExamples); no lookup, so no limit nor usage event.
      handle: async () => ({
        data: deps.examples.map(({ ip, label }) => ({ ip, label, family: ip.includes(':') ? 'ipv6' : 'ipv4' })),
      }),
    }),
  ];
}
