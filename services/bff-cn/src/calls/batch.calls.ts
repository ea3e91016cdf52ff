import type { BatchService } from '../batch/batch.service.js';
import { defineCall, type FaceACall } from '../face-a/face-a-call.js';

/**
 * The `ips` field may be larger than other fields: 100,000 addresses (a VIP's batch) of up to 39
 * characters and a separator fit. The row limits themselves are checked by the batch service.
 */
export const IPS_MAX_BYTES = 4 * 1024 * 1024;

/** Batch lookups answering an .xlsx (README "Batch lookups"): `ips` text or an uploaded .xlsx/.csv/.txt `file`. */
export function batchCalls(batch: BatchService): FaceACall[] {
  return [
    defineCall({
      name: 'query_ip_batch_zone',
      path: '/v1/query_ip_batch_zone',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      maxFieldBytes: IPS_MAX_BYTES,
      input: { ips: { kind: 'string', label: 'IP 地址', required: true, maxLength: IPS_MAX_BYTES } },
      handle: async (context, { ips }) => ({ data: null, file: await batch.fromText(context, ips, 'query_ip_batch_zone') }),
    }),
    defineCall({
      name: 'upload_ip_xlsx',
      path: '/v1/upload_ip_xlsx',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { file: { kind: 'file', label: '文件', required: true } },
      handle: async (context, { file }) => ({ data: null, file: await batch.fromUpload(context, file, 'upload_ip_xlsx') }),
    }),
  ];
}
