import { metricsMeter } from './metrics-registry.js';

/** What the consumer lag gauge reads of a kafkajs batch (`EachBatchPayload['batch']`). */
export interface LagSource {
  topic: string;
  partition: number;
  offsetLag(): string;
}

const meter = metricsMeter();

const produceErrors = meter.createCounter('messaging.kafka.produce.errors', {
  unit: '{error}',
  description: 'Sends Kafka did not acknowledge (error or timeout), per topic.',
});
const produceErrorAttributes = new Map<string, { 'messaging.destination.name': string }>();

/** EventProducer's hook: one failed send to `topic` (a catalogue topic or its DLQ: bounded). */
export function recordKafkaProduceError(topic: string): void {
  let attributes = produceErrorAttributes.get(topic);
  if (attributes === undefined) produceErrorAttributes.set(topic, (attributes = { 'messaging.destination.name': topic }));
  produceErrors.add(1, attributes);
}

interface LagPoint {
  lag: number;
  attributes: {
    'messaging.consumer.group.name': string;
    'messaging.destination.name': string;
    'messaging.destination.partition.id': string;
  };
}

const lags = new Map<string, LagPoint>();

meter
  .createObservableGauge('messaging.kafka.consumer.lag', {
    unit: '{message}',
    description:
      "Records between a consumer group's position and the partition's high watermark, as of the group's last fetched batch.",
  })
  .addCallback((result) => {
    for (const point of lags.values()) result.observe(point.lag, point.attributes);
  });

/** EventConsumer's hook, once per fetched batch: `batch.offsetLag()` of its topic and partition. */
export function recordConsumerLag(group: string, batch: LagSource): void {
  const key = `${group}\u0000${batch.topic}\u0000${batch.partition}`;
  let point = lags.get(key);
  if (point === undefined) {
    point = {
      lag: 0,
      attributes: {
        'messaging.consumer.group.name': group,
        'messaging.destination.name': batch.topic,
        'messaging.destination.partition.id': String(batch.partition),
      },
    };
    lags.set(key, point);
  }
  point.lag = Number(batch.offsetLag());
}

const deadLettered = meter.createCounter('ipdata.kafka.dlq.records', {
  unit: '{record}',
  description: 'Records a consumer moved to the DLQ, per consumer group and source topic.',
});

/** EventConsumer's hook: one poison record of `topic` moved to `<topic>.dlq` by `group`. */
export function recordDeadLetter(group: string, topic: string): void {
  deadLettered.add(1, { 'messaging.consumer.group.name': group, 'messaging.destination.name': topic });
}
