import { createLogger, loadConfigOrExit, redactConfig, runService } from '@ipdata/common';
import { buildBffCn } from './app.js';
import { loadCardTools } from './card-tools/index.js';
import { bffCnEnv, loadBffCnConfig } from './config.js';

// Wiring only (services/README.md): config → logger → card tables → buildBffCn → start.
const config = loadConfigOrExit('bff-cn', () => loadBffCnConfig());
const logger = createLogger({ service: 'bff-cn', level: config.LOG_LEVEL });
logger.info({ config: redactConfig(bffCnEnv, config) }, 'starting bff-cn');
const cardTools = await loadCardTools();
await runService(logger, buildBffCn(config, { logger, cardTools }).lifecycle);
