// Prints every usage event of usage.lookup.v1 as one JSON line (fields: proto/ipdata/events/v1/TOPICS.md).
// Run: KAFKA_BROKERS=127.0.0.1:9092 node --conditions=source --import tsx scripts/examples/usage-consumer.ts
import { Kafka, logLevel } from 'kafkajs';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';

const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
const kafka = new Kafka({ clientId: 'usage-example', brokers, logLevel: logLevel.WARN });
const consumer = kafka.consumer({ groupId: process.env['GROUP_ID'] ?? 'usage-example' });
const seen = new Set<string>(); // producers may re-send after a crash: count each event id once

await consumer.connect();
await consumer.subscribe({ topic: process.env['TOPIC'] ?? 'usage.lookup.v1', fromBeginning: true });
await consumer.run({
  eachMessage: async ({ partition, message }) => {
    if (!message.value) return;
    const event = UsageEvent.decode(message.value);
    if (seen.has(event.meta?.id ?? '')) return;
    seen.add(event.meta?.id ?? '');
    console.log(JSON.stringify({ partition, offset: message.offset, ...(UsageEvent.toJSON(event) as object) }));
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void consumer.disconnect().then(() => process.exit(0)));
