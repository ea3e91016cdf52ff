import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startModuleWorker } from './module-worker.js';

/** A folder of ES modules, as every package of this repository is. */
function moduleDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'module-worker-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  return dir;
}

describe('startModuleWorker', () => {
  it('runs the TypeScript module beside a TypeScript caller, with workerData', async () => {
    const dir = moduleDir();
    writeFileSync(
      join(dir, 'echo.worker.ts'),
      "import { parentPort, workerData } from 'node:worker_threads';\n" +
        'const doubled: number = (workerData as { n: number }).n * 2;\n' +
        'parentPort!.postMessage(doubled);\n',
    );
    const worker = startModuleWorker(pathToFileURL(join(dir, 'caller.ts')).href, './echo.worker', { workerData: { n: 21 } });
    const [answer] = (await once(worker, 'message')) as [number];
    expect(answer).toBe(42);
    await worker.terminate();
  });

  it('runs the JavaScript module beside a compiled caller', async () => {
    const dir = moduleDir();
    writeFileSync(
      join(dir, 'echo.worker.js'),
      "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage('js');\n",
    );
    const worker = startModuleWorker(pathToFileURL(join(dir, 'caller.js')).href, './echo.worker');
    const [answer] = (await once(worker, 'message')) as [string];
    expect(answer).toBe('js');
    await worker.terminate();
  });

  it('ends with an error event when the module cannot be loaded', async () => {
    const dir = moduleDir();
    const worker = startModuleWorker(pathToFileURL(join(dir, 'caller.ts')).href, './missing.worker');
    const [error] = (await once(worker, 'error')) as [Error];
    expect(String(error)).toMatch(/missing\.worker/);
  });
});
