import { createLogger, loadConfigOrExit, redactConfig, runService } from '@ipdata/common';
import { buildDownloadsService } from './app.js';
import { downloadsEnv, loadDownloadsConfig } from './config.js';

// Wiring only (services/README.md): config → logger → buildDownloadsService (adapters, domain, handlers) → start.
const config = loadConfigOrExit('downloads', () => loadDownloadsConfig());
const logger = createLogger({ service: 'downloads', level: config.LOG_LEVEL });
logger.info({ config: redactConfig(downloadsEnv, config) }, 'starting downloads');

const service = buildDownloadsService(config, { logger });
await runService(logger, service.lifecycle);
