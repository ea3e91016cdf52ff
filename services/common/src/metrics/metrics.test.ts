import { describe, expect, it } from 'vitest';
import { httpRouteMetrics } from './http-metrics.js';
import { recordConsumerLag, recordDeadLetter, recordKafkaProduceError } from './kafka-metrics.js';
import { METRIC_CATALOGUE } from './metric-catalogue.js';
import { prometheusText, setMetricsServiceName } from './metrics-registry.js';
import { rpcClientMetrics, rpcServerMetrics } from './rpc-metrics.js';
import { startRuntimeMetrics } from './runtime-metrics.js';

/** Metric names of a Prometheus text answer (from its TYPE lines). */
function exposedNames(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] as string);
}

describe('metrics', () => {
  it('writes every instrument under a catalogued Prometheus name, with its unit suffix', async () => {
    setMetricsServiceName('unit-test');
    startRuntimeMetrics();
    httpRouteMetrics('GET', '/v1/ip/{ip}').record(200, 0.0012);
    httpRouteMetrics('BREW', '/coffee').record(405, 0.002);
    rpcServerMetrics('/ipdata.lookup.v1.LookupService/Lookup').record(0, 1.5);
    rpcClientMetrics('/ipdata.lookup.v1.LookupService/Lookup').record(14, 3);
    recordKafkaProduceError('usage.lookup.v1');
    recordConsumerLag('stats', { topic: 'usage.lookup.v1', partition: 2, offsetLag: () => '17' });
    recordDeadLetter('stats', 'usage.lookup.v1');
    recordDeadLetter('stats', 'usage.lookup.v1');
    const text = await prometheusText();
    const catalogued = new Set(METRIC_CATALOGUE.map((metric) => metric.name));
    const names = exposedNames(text);
    expect(names.filter((name) => !catalogued.has(name))).toEqual([]);
    expect(names).toContain('http_server_request_duration_seconds');
    expect(text).toContain('target_info{service_name="unit-test"} 1');
    expect(text).toMatch(
      /^http_server_request_duration_seconds_bucket\{http_request_method="GET",http_route="\/v1\/ip\/\{ip\}",http_response_status_code="200",otel_scope_name="@ipdata\/common",le="0.0025"\} 1$/m,
    );
    // Methods outside the known set share one label value: a client cannot grow the series.
    expect(text).toContain('http_request_method="_OTHER",http_route="/coffee"');
    expect(text).toContain(
      'rpc_client_duration_milliseconds_count{rpc_system="grpc",rpc_service="ipdata.lookup.v1.LookupService",rpc_method="Lookup",rpc_grpc_status_code="14"',
    );
    expect(text).toContain(
      'messaging_kafka_consumer_lag{messaging_consumer_group_name="stats",messaging_destination_name="usage.lookup.v1",messaging_destination_partition_id="2"',
    );
    expect(text).toMatch(
      /^ipdata_kafka_dlq_records_total\{messaging_consumer_group_name="stats",messaging_destination_name="usage.lookup.v1",[^}]*\} 2$/m,
    );
  });
});
