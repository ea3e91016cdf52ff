import { createLogger, loadConfigOrExit, redactConfig, runService } from '@ipdata/common';
import { buildProbeService } from './app.js';
import { loadProbeConfig, probeEnv } from './config.js';

// Wiring only (services/README.md): config → logger → buildProbeService (adapters, domain, handlers) → start.
const config = loadConfigOrExit('probe', () => loadProbeConfig());
const logger = createLogger({ service: 'probe', level: config.LOG_LEVEL });
logger.info({ config: redactConfig(probeEnv, config) }, 'starting probe');

const service = buildProbeService(config, { logger });
await runService(logger, service.lifecycle);
