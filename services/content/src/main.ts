import { createLogger, loadConfigOrExit, redactConfig, runService } from '@ipdata/common';
import { buildContentService } from './app.js';
import { contentEnv, loadContentConfig } from './config.js';

// Wiring only (services/README.md): config → logger → buildContentService (adapters, domain, handlers) → start.
const config = loadConfigOrExit('content', () => loadContentConfig());
const logger = createLogger({ service: 'content', level: config.LOG_LEVEL });
logger.info({ config: redactConfig(contentEnv, config) }, 'starting content');

const service = buildContentService(config, { logger });
await runService(logger, service.lifecycle);
