import { createLogger, loadConfigOrExit, redactConfig, runService } from '@ipdata/common';
import { buildStatsService } from './app.js';
import { loadStatsConfig, statsEnv } from './config.js';

// Wiring only (services/README.md): config → logger → buildStatsService (adapters, domain, handlers) → start.
const config = loadConfigOrExit('stats', () => loadStatsConfig());
const logger = createLogger({ service: 'stats', level: config.LOG_LEVEL });
logger.info({ config: redactConfig(statsEnv, config) }, 'starting stats');

const service = buildStatsService(config, { logger });
await runService(logger, service.lifecycle);
