/**
 * Every metric a service exposes at `/metrics`, by its Prometheus name (what the exporter's
 * serializer writes from the OpenTelemetry name and unit). `metrics.test.ts` and
 * `test/metrics-endpoint.test.ts` hold common's output to it; a scrape of every service of the
 * started test system against it is still to come (issue 50).
 */
export interface CataloguedMetric {
  /** Prometheus name, without the `_bucket`/`_sum`/`_count` or `_total` series suffixes. */
  name: string;
  otelName: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** Labels it may carry besides `otel_scope_name` (and `le` on buckets). */
  labels: readonly string[];
  /** Exposed by every service from common, with no per-service code (present once the process served a request or ran a GC). */
  generic: boolean;
  /** Only where the code path runs (a gRPC server, a client, a Kafka consumer). */
  where?: string;
  help: string;
}

const HTTP_LABELS = ['http_request_method', 'http_route', 'http_response_status_code'];
const RPC_LABELS = ['rpc_system', 'rpc_service', 'rpc_method', 'rpc_grpc_status_code'];

const delay = (stat: string): CataloguedMetric => ({
  name: `nodejs_eventloop_delay_${stat}_seconds`,
  otelName: `nodejs.eventloop.delay.${stat}`,
  type: 'gauge',
  labels: [],
  generic: true,
  help: `Event loop ${stat} delay since the last scrape (perf_hooks, 20 ms resolution).`,
});

export const METRIC_CATALOGUE: readonly CataloguedMetric[] = [
  {
    name: 'target_info',
    otelName: '(resource)',
    type: 'gauge',
    labels: ['service_name'],
    generic: true,
    help: 'The resource: service.name of the process.',
  },
  {
    name: 'http_server_request_duration_seconds',
    otelName: 'http.server.request.duration',
    type: 'histogram',
    labels: HTTP_LABELS,
    generic: true,
    help: 'HTTP server requests per method, route template (never the raw path; `unmatched` for 404/405 and unnamed first-handler answers) and status code.',
  },
  {
    name: 'rpc_server_duration_milliseconds',
    otelName: 'rpc.server.duration',
    type: 'histogram',
    labels: RPC_LABELS,
    generic: false,
    where: 'gRPC servers (lookup-engine, auth, billing, stats, downloads, content), once called',
    help: 'Inbound gRPC calls per service, method and status code.',
  },
  {
    name: 'rpc_client_duration_milliseconds',
    otelName: 'rpc.client.duration',
    type: 'histogram',
    labels: RPC_LABELS,
    generic: false,
    where: 'gRPC clients (the BFFs), once they called',
    help: 'Outbound gRPC calls per service, method and status code.',
  },
  delay('min'),
  delay('max'),
  delay('mean'),
  delay('p50'),
  delay('p99'),
  {
    name: 'nodejs_eventloop_utilization_ratio',
    otelName: 'nodejs.eventloop.utilization',
    type: 'gauge',
    labels: [],
    generic: true,
    help: 'Share of the time since the last scrape the event loop was busy.',
  },
  {
    name: 'v8js_memory_heap_used_bytes',
    otelName: 'v8js.memory.heap.used',
    type: 'gauge',
    labels: ['v8js_heap_space_name'],
    generic: true,
    help: 'Heap used per V8 heap space.',
  },
  {
    name: 'v8js_memory_heap_limit_bytes',
    otelName: 'v8js.memory.heap.limit',
    type: 'gauge',
    labels: ['v8js_heap_space_name'],
    generic: true,
    help: 'Heap reserved per V8 heap space.',
  },
  {
    name: 'v8js_memory_heap_max_bytes',
    otelName: 'v8js.memory.heap.max',
    type: 'gauge',
    labels: [],
    generic: true,
    help: "V8's heap size limit.",
  },
  {
    name: 'v8js_gc_duration_seconds',
    otelName: 'v8js.gc.duration',
    type: 'histogram',
    labels: ['v8js_gc_type'],
    generic: true,
    help: 'Garbage collection pauses per kind (major, minor, incremental, weakcb).',
  },
  {
    name: 'ipdata_dataset_age_seconds',
    otelName: 'ipdata.dataset.age',
    type: 'gauge',
    labels: [],
    generic: false,
    where: 'lookup-engine, once a dataset is loaded',
    help: 'Seconds since the served dataset was built (alert DatasetStale).',
  },
  {
    name: 'ipdata_quota_reconcile_counters_raised_total',
    otelName: 'ipdata.quota.reconcile.counters_raised',
    type: 'counter',
    labels: [],
    generic: false,
    where: 'stats, with QUOTA_RECONCILE_INTERVAL_SECONDS above 0',
    help: 'Quota counters the periodic reconcile found below the rollups and raised (alert QuotaCountersDrifting).',
  },
  {
    name: 'ipdata_kafka_dlq_records_total',
    otelName: 'ipdata.kafka.dlq.records',
    type: 'counter',
    labels: ['messaging_consumer_group_name', 'messaging_destination_name'],
    generic: false,
    where: 'services with an EventConsumer, after a record went to its DLQ',
    help: 'Poison records a consumer moved to `<topic>.dlq`, per group and source topic (alert DeadLetterQueueReceiving).',
  },
  {
    name: 'messaging_kafka_produce_errors_total',
    otelName: 'messaging.kafka.produce.errors',
    type: 'counter',
    labels: ['messaging_destination_name'],
    generic: false,
    where: 'services with an EventProducer, after a send failed',
    help: 'Sends Kafka did not acknowledge (error or timeout), per topic.',
  },
  {
    name: 'messaging_kafka_consumer_lag',
    otelName: 'messaging.kafka.consumer.lag',
    type: 'gauge',
    labels: ['messaging_consumer_group_name', 'messaging_destination_name', 'messaging_destination_partition_id'],
    generic: false,
    where: 'services with an EventConsumer, once it fetched a batch',
    help: "Records between the group's position and the high watermark, from kafkajs' batch.offsetLag().",
  },
];
