import { createLogger, loadConfigOrExit, redactConfig, runService } from '@ipdata/common';
import { buildAuthService } from './app.js';
import { authEnvSchema, loadAuthConfig } from './config.js';

// Wiring only: config → logger → service (adapters, domain, handlers) → start.
const config = loadConfigOrExit('auth', () => loadAuthConfig());
const logger = createLogger({ service: 'auth', level: config.LOG_LEVEL });
logger.info({ config: redactConfig(authEnvSchema, config) }, 'configuration loaded');
const service = buildAuthService(config, logger);
await runService(logger, service.lifecycle);
