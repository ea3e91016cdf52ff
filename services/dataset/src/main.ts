import { parseArgs } from 'node:util';
import { ConfigError, createLogger } from '@ipdata/common';
import { datasetPublishedEvent, publishDataset, PublishError } from './adapters/kafka/dataset-publisher.js';
import { buildDataset } from './build/build-dataset.js';
import { defaultInputs } from './build/default-inputs.js';
import { consoleReporter } from './build/progress.js';
import { DATA_DIR, loadDatasetConfig } from './config.js';
import { SourceError } from './sources/source-error.js';

// CLI: node --conditions=source --import tsx services/dataset/src/main.ts [--publish] [--force]
async function main(): Promise<void> {
  const { values: flags } = parseArgs({
    options: { publish: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } },
    strict: true,
  });
  const config = loadDatasetConfig();
  const reporter = consoleReporter();
  const { inputs, sources } = defaultInputs(DATA_DIR, config.PRIVACY_LISTS_DIR);
  const result = buildDataset({
    inputs,
    sources,
    datasetsDir: config.DATASETS_DIR,
    force: flags.force,
    sourceDateEpoch: config.SOURCE_DATE_EPOCH < 0 ? null : config.SOURCE_DATE_EPOCH,
    reporter,
  });
  if (flags.publish) {
    const logger = createLogger({ service: 'dataset', level: config.LOG_LEVEL });
    const eventId = await publishDataset(
      { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID },
      logger,
      datasetPublishedEvent(result),
    );
    reporter.say(`published ${result.version} on dataset.published.v1 (event ${eventId})`);
  }
}

main().catch((error: unknown) => {
  // Bad input ends the build with one line naming the file and the problem.
  if (error instanceof SourceError) process.stderr.write(`dataset: ${error.path}: ${error.problem}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`dataset: ${error.message}\n`);
  else if (error instanceof PublishError) process.stderr.write(`dataset: ${error.message}\n`);
  else process.stderr.write(`dataset: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
