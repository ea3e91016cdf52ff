import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Lifecycle } from '../lifecycle/lifecycle.js';

/**
 * Answers /healthz (alive: always 200 while the process runs) and /readyz (200 only when the
 * lifecycle is running and every component's dependency answers; 503 with the failing checks
 * otherwise). Returns true when it handled the request, so a BFF can mount it in front of its
 * own routes.
 */
export function createHealthHandler(lifecycle: Lifecycle) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    const path = (request.url ?? '').split('?')[0];
    if (path === '/healthz') {
      writeJson(response, 200, { status: 'ok' });
      return true;
    }
    if (path === '/readyz') {
      const report = await lifecycle.readiness();
      writeJson(response, report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'not ready', checks: report.checks });
      return true;
    }
    return false;
  };
}

function writeJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}
