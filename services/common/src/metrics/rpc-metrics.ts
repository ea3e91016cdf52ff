import type { Attributes, Histogram } from '@opentelemetry/api';
import { durationHistogram } from './metrics-registry.js';

/** Milliseconds, the semantic conventions' unit for `rpc.*.duration`. */
export const RPC_DURATION_BUCKETS = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];

const rpcServerDuration = durationHistogram({
  name: 'rpc.server.duration',
  unit: 'ms',
  description: 'Duration of inbound gRPC calls, per service, method and status code.',
  boundaries: RPC_DURATION_BUCKETS,
});
const rpcClientDuration = durationHistogram({
  name: 'rpc.client.duration',
  unit: 'ms',
  description: 'Duration of outbound gRPC calls, per service, method and status code.',
  boundaries: RPC_DURATION_BUCKETS,
});

/** The series of one gRPC method ('/ipdata.lookup.v1.LookupService/Lookup'), one per status code seen. */
export class RpcMethodMetrics {
  private readonly byCode: Array<Attributes | undefined> = new Array<Attributes | undefined>(17).fill(undefined);
  private readonly service: string;
  private readonly method: string;

  constructor(
    private readonly histogram: Histogram,
    path: string,
  ) {
    const slash = path.lastIndexOf('/');
    this.service = slash > 0 ? path.slice(path.startsWith('/') ? 1 : 0, slash) : 'unknown';
    this.method = slash >= 0 ? path.slice(slash + 1) : path;
  }

  record(code: number, milliseconds: number): void {
    const at = code >= 0 && code <= 16 ? code : 2; // UNKNOWN
    let attributes = this.byCode[at];
    if (attributes === undefined) {
      attributes = Object.freeze({
        'rpc.system': 'grpc',
        'rpc.service': this.service,
        'rpc.method': this.method,
        'rpc.grpc.status_code': at,
      });
      this.byCode[at] = attributes;
    }
    this.histogram.record(milliseconds, attributes);
  }
}

const servers = new Map<string, RpcMethodMetrics>();
const clients = new Map<string, RpcMethodMetrics>();

function metricsOf(all: Map<string, RpcMethodMetrics>, histogram: Histogram, path: string): RpcMethodMetrics {
  let metrics = all.get(path);
  if (metrics === undefined) all.set(path, (metrics = new RpcMethodMetrics(histogram, path)));
  return metrics;
}

/** Paths come from the methods a server registered (grpc-js answers UNIMPLEMENTED for the rest before any handler). */
export function rpcServerMetrics(path: string): RpcMethodMetrics {
  return metricsOf(servers, rpcServerDuration, path);
}

/** Paths come from the generated client's method definitions. */
export function rpcClientMetrics(path: string): RpcMethodMetrics {
  return metricsOf(clients, rpcClientDuration, path);
}
