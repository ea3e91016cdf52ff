import { randomBytes } from 'node:crypto';
import type { Plugin } from 'vite';

/**
 * New-build detection's build side: each build gets an id, compiled into the app (__BUILD_ID__)
 * and written to dist/build.json, which the running app fetches to learn that a newer build is
 * being served (build-watch.ts).
 */
export function buildIdPlugin(): Plugin {
  const id = `${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}-${randomBytes(4).toString('hex')}`;
  return {
    name: 'ipdata-build-id',
    config: () => ({ define: { __BUILD_ID__: JSON.stringify(id) } }),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'build.json', source: `${JSON.stringify({ id })}\n` });
    },
  };
}
