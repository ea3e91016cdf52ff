import { DatasetPublished } from '@ipdata/proto/events/v1/dataset';
import { createKafka, ensureTopics, EventProducer, topicSpecs, TOPICS, type Logger } from '@ipdata/common';
import type { BuildResult } from '../../build/build-dataset.js';

export interface PublisherConfig {
  brokers: readonly string[];
  clientId: string;
}

/** The event announcing a built version (files as listed in its manifest, plus the manifest). */
export function datasetPublishedEvent(result: BuildResult): DatasetPublished {
  const { manifest, manifestFile } = result;
  return DatasetPublished.fromPartial({
    version: result.version,
    location: result.folder,
    builtAt: new Date(manifest.builtAt),
    files: [
      ...manifest.files.map((file) => ({ name: file.name, sizeBytes: file.size, sha256: file.sha256 })),
      { name: 'manifest.json', sizeBytes: manifestFile.size, sha256: manifestFile.sha256 },
    ],
    ipv4Ranges: manifest.counts.ipv4Ranges,
    ipv6Ranges: manifest.counts.ipv6Ranges,
  });
}

/** The version was built but could not be announced (the CLI prints it as one line). */
export class PublishError extends Error {
  override name = 'PublishError';
}

/** Announces a version on dataset.published.v1 (key = version); resolves once Kafka acknowledged it. */
export async function publishDataset(config: PublisherConfig, logger: Logger, event: DatasetPublished): Promise<string> {
  try {
    return await send(config, logger, event);
  } catch (error) {
    throw new PublishError(`built ${event.version}, but publishing it to ${config.brokers.join(',')} failed: ${String(error)}`);
  }
}

async function send(config: PublisherConfig, logger: Logger, event: DatasetPublished): Promise<string> {
  const kafka = createKafka({ brokers: config.brokers, clientId: config.clientId }, logger);
  await ensureTopics(kafka, topicSpecs([TOPICS.datasetPublished]), logger);
  const producer = EventProducer.fromConfig({ kafka, source: 'dataset' }, logger);
  await producer.start();
  try {
    return await producer.send(TOPICS.datasetPublished, event, { key: event.version });
  } finally {
    await producer.shutdown();
  }
}
