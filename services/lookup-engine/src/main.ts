import { createLogger, loadConfigOrExit, runService } from '@ipdata/common';
import { buildLookupEngine } from './app.js';
import { loadLookupEngineConfig } from './config.js';

const config = loadConfigOrExit('lookup-engine', () => loadLookupEngineConfig());
const logger = createLogger({ service: 'lookup-engine', level: config.LOG_LEVEL });
const engine = buildLookupEngine(config, logger);

// SIGHUP reloads the newest dataset on disk (operators after copying a file in by hand).
process.on('SIGHUP', () => {
  void engine.store.reloadNewest();
});

await runService(logger, engine.lifecycle);
