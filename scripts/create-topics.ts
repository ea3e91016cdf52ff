/**
 * Creates every topic of the catalogue (and its .dlq twin) on KAFKA_BROKERS; `make up` runs it.
 * Services also ensure their own topics at start, so this only saves them the wait.
 */
import { TOPIC_CATALOGUE, createKafka, createLogger, ensureTopics, env, kafkaEnv, loadConfig, topicSpecs } from '@ipdata/common';

const config = loadConfig({ KAFKA_BROKERS: kafkaEnv.KAFKA_BROKERS, LOG_LEVEL: env.oneOf(['info', 'warn', 'debug'], 'warn') });
const logger = createLogger({ service: 'create-topics', level: config.LOG_LEVEL });
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'create-topics' }, logger);
const specs = topicSpecs(TOPIC_CATALOGUE);
await ensureTopics(kafka, specs, logger);
console.log(`kafka topics ready: ${specs.map((spec) => `${spec.name} (${spec.partitions})`).join(', ')}`);
