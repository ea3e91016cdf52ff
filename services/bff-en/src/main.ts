import { createLogger, loadConfigOrExit, redactConfig, runService, setHeapGrowingPercent } from '@ipdata/common';
import { buildBffEn } from './app.js';
import { bffEnEnv, loadBffEnConfig } from './config.js';

// Wiring only (services/README.md): config → V8 heap setting → logger → buildBffEn → start.
const config = loadConfigOrExit('bff-en', () => loadBffEnConfig());
setHeapGrowingPercent(config.V8_HEAP_GROWING_PERCENT);
const logger = createLogger({ service: 'bff-en', level: config.LOG_LEVEL });
logger.info({ config: redactConfig(bffEnEnv, config) }, 'starting bff-en');
await runService(logger, buildBffEn(config, { logger }).lifecycle);
