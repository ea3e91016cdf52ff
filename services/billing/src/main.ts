import { createLogger, loadConfigOrExit, redactConfig, runService } from '@ipdata/common';
import { buildBillingService } from './app.js';
import { billingEnv, loadBillingConfig } from './config.js';

// Wiring only (services/README.md): config → logger → buildBillingService (adapters, domain, handlers) → start.
const config = loadConfigOrExit('billing', () => loadBillingConfig());
const logger = createLogger({ service: 'billing', level: config.LOG_LEVEL });
logger.info({ config: redactConfig(billingEnv, config) }, 'starting billing');

let service;
try {
  service = buildBillingService(config, { logger });
} catch (error) {
  // A bad plan catalogue (or similar) is a start-up error naming every problem.
  logger.fatal({ err: error }, `failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
await runService(logger, service.lifecycle);
