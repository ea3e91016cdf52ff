import { Kafka, logLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { Logger } from 'pino';

export interface KafkaConfig {
  brokers: readonly string[];
  clientId: string;
}

const PINO_LEVEL: Record<logLevel, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.NOTHING]: 'debug',
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** Routes kafkajs' own logging into pino (same keys as every other line), one child logger for the client. */
function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...fields } = log;
      logger[PINO_LEVEL[level]](fields, message);
    };
}

export function createKafka(config: KafkaConfig, logger: Logger): Kafka {
  return new Kafka({
    clientId: config.clientId,
    brokers: [...config.brokers],
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(logger.child({ module: 'kafkajs' })),
    retry: { initialRetryTime: 300, retries: 8 },
  });
}
