import { defineCall, type FaceACall } from '../face-a/face-a-call.js';
import type { TracerouteService } from '../traceroute/traceroute.service.js';

/** Task ids are random UUIDs (traceroute.service.ts); anything else is refused before Redis is asked. */
export const TASK_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Probe site ids as the worker accepts them (services/probe PROBE_SITE). */
const SITE_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Network detection (spec: 网络检测): a traceroute run by a probe worker, polled by the page. */
export function tracerouteCalls(traceroute: TracerouteService): FaceACall[] {
  return [
    defineCall({
      name: 'traceroute_task_add',
      path: '/v1/traceroute_task_add',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        ip: { kind: 'ip', label: 'IP 地址', required: false },
        domain: { kind: 'string', label: '域名', required: false, maxLength: 253 },
        site: {
          kind: 'string',
          label: '探测节点',
          required: false,
          maxLength: 64,
          pattern: SITE_PATTERN,
          patternMsg: '探测节点格式不正确',
        },
      },
      handle: async (context, input) => ({ data: await traceroute.add(context, input) }),
    }),
    defineCall({
      name: 'traceroute_task_get',
      path: '/v1/traceroute_task_get',
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: {
        task_id: {
          kind: 'string',
          label: '任务编号',
          required: true,
          maxLength: 36,
          pattern: TASK_ID_PATTERN,
          patternMsg: '任务编号格式不正确',
        },
      },
      handle: async (_context, { task_id }) => ({ data: await traceroute.get(task_id) }),
    }),
    defineCall({
      name: 'traceroute_task_site',
      path: '/v1/traceroute_task_site',
      methods: ['POST'],
      needsLogin: false,
      silent: true,
      input: {},
      handle: async () => ({ data: await traceroute.sites() }),
    }),
  ];
}
