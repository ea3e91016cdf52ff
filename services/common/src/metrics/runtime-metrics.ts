import { constants, monitorEventLoopDelay, PerformanceObserver, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { metricsMeter } from './metrics-registry.js';

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

let started = false;

/**
 * Node runtime metrics under the OpenTelemetry semantic conventions' names (`nodejs.*`,
 * `v8js.*`): event-loop delay (perf_hooks' histogram, 20 ms resolution, reset at each scrape,
 * so it covers the last scrape interval), event-loop utilization, V8 heap per space and its
 * limit, GC pauses per kind. Idempotent; HttpServer starts it when it serves `/metrics`.
 */
export function startRuntimeMetrics(): void {
  if (started) return;
  started = true;
  const meter = metricsMeter();
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  const delayGauges = {
    min: meter.createObservableGauge('nodejs.eventloop.delay.min', {
      unit: 's',
      description: 'Event loop minimum delay since the last scrape.',
    }),
    max: meter.createObservableGauge('nodejs.eventloop.delay.max', {
      unit: 's',
      description: 'Event loop maximum delay since the last scrape.',
    }),
    mean: meter.createObservableGauge('nodejs.eventloop.delay.mean', {
      unit: 's',
      description: 'Event loop mean delay since the last scrape.',
    }),
    p50: meter.createObservableGauge('nodejs.eventloop.delay.p50', {
      unit: 's',
      description: 'Event loop 50th percentile delay since the last scrape.',
    }),
    p99: meter.createObservableGauge('nodejs.eventloop.delay.p99', {
      unit: 's',
      description: 'Event loop 99th percentile delay since the last scrape.',
    }),
  };
  const utilization = meter.createObservableGauge('nodejs.eventloop.utilization', {
    unit: '1',
    description: 'Share of the time since the last scrape the event loop was busy.',
  });
  const heapUsed = meter.createObservableGauge('v8js.memory.heap.used', {
    unit: 'By',
    description: 'Heap memory used, per V8 heap space.',
  });
  const heapLimit = meter.createObservableGauge('v8js.memory.heap.limit', {
    unit: 'By',
    description: 'Total heap memory size pre-allocated, per V8 heap space.',
  });
  const heapMax = meter.createObservableGauge('v8js.memory.heap.max', { unit: 'By', description: "V8's heap size limit." });
  const gc = meter.createHistogram('v8js.gc.duration', {
    unit: 's',
    description: 'Garbage collection pauses, per kind.',
    advice: { explicitBucketBoundaries: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1] },
  });
  const gcAttributes = new Map(Object.entries(GC_KINDS).map(([kind, type]) => [Number(kind), { 'v8js.gc.type': type }]));
  let lastUtilization: EventLoopUtilization = performance.eventLoopUtilization();
  const spaceAttributes = new Map<string, { 'v8js.heap.space.name': string }>();

  meter.addBatchObservableCallback(
    (result) => {
      const ns = 1e-9;
      result.observe(delayGauges.min, delay.min * ns);
      result.observe(delayGauges.max, delay.max * ns);
      result.observe(delayGauges.mean, delay.mean * ns);
      result.observe(delayGauges.p50, delay.percentile(50) * ns);
      result.observe(delayGauges.p99, delay.percentile(99) * ns);
      delay.reset();
      const now = performance.eventLoopUtilization();
      result.observe(utilization, performance.eventLoopUtilization(now, lastUtilization).utilization);
      lastUtilization = now;
      for (const space of getHeapSpaceStatistics()) {
        let attributes = spaceAttributes.get(space.space_name);
        if (attributes === undefined)
          spaceAttributes.set(space.space_name, (attributes = { 'v8js.heap.space.name': space.space_name }));
        result.observe(heapUsed, space.space_used_size, attributes);
        result.observe(heapLimit, space.space_size, attributes);
      }
      result.observe(heapMax, getHeapStatistics().heap_size_limit);
    },
    [...Object.values(delayGauges), utilization, heapUsed, heapLimit, heapMax],
  );

  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = ((entry as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind;
      gc.record(entry.duration / 1000, gcAttributes.get(kind ?? -1) ?? { 'v8js.gc.type': 'other' });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  // The observer must not keep a process alive that is otherwise done.
  (observer as unknown as { unref?: () => void }).unref?.();
}
