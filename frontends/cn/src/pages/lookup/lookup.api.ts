import type { DownloadedFile } from '../../api/base-query.js';
import { faceAApi } from '../../api/face-a.api.js';
import type { CallData, CallForm } from '../../api/face-a.types.js';

/** The lookup pages' calls (traceroute, IP report), added to the one face A API. */
export const lookupApi = faceAApi.injectEndpoints({
  endpoints: (build) => ({
    tracerouteSites: build.query<CallData<'traceroute_task_site'>, void>({
      query: () => ({ url: '/v1/traceroute_task_site' }),
    }),
    tracerouteAdd: build.mutation<CallData<'traceroute_task_add'>, CallForm<'traceroute_task_add'>>({
      query: (fields) => ({ url: '/v1/traceroute_task_add', fields }),
    }),
    tracerouteGet: build.query<CallData<'traceroute_task_get'>, CallForm<'traceroute_task_get'>>({
      query: (fields) => ({ url: '/v1/traceroute_task_get', fields }),
    }),
    reportGenerate: build.query<CallData<'report_generate'>, { ip: string }>({
      query: (fields) => ({ url: '/v1/report_generate', fields }),
    }),
    reportExamples: build.query<CallData<'report_generate_examples'>, void>({
      query: () => ({ url: '/v1/report_generate_examples' }),
    }),
    reportFile: build.mutation<DownloadedFile, { ip: string; format: 'pdf' | 'xlsx' }>({
      query: (fields) => ({ url: '/v1/report_generate_file', fields, timeoutMs: 60_000 }),
    }),
  }),
});

export const {
  useTracerouteSitesQuery,
  useTracerouteAddMutation,
  useTracerouteGetQuery,
  useReportGenerateQuery,
  useReportExamplesQuery,
  useReportFileMutation,
} = lookupApi;
