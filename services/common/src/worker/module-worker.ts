import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running a module that sits beside the caller's: `startModuleWorker(import.meta.url,
 * './sender.worker', options)` starts `sender.worker.js` next to a compiled caller in dist, or
 * `sender.worker.ts` next to a caller run from TypeScript source (tsx, the tests, `make bench`).
 * Node 20 does not hand the main thread's tsx hooks to workers, so a source worker registers tsx
 * itself before it imports the module, and resolves workspace packages to their sources as the
 * caller does (`--conditions=source`).
 */
export function startModuleWorker(callerUrl: string, relativeName: string, options: WorkerOptions = {}): Worker {
  const extension = extname(fileURLToPath(callerUrl));
  const moduleUrl = new URL(`${relativeName}${extension}`, callerUrl);
  if (extension !== '.ts') return new Worker(moduleUrl, options);
  const execArgv = options.execArgv ?? process.execArgv;
  const code =
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl.href)}); })` +
    // An import that fails must end the worker with an 'error' event, not an unhandled rejection warning.
    `.catch((error) => { setImmediate(() => { throw error; }); });`;
  return new Worker(code, {
    ...options,
    eval: true,
    execArgv: execArgv.some((arg) => arg.startsWith('--conditions')) ? execArgv : [...execArgv, '--conditions=source'],
  });
}
