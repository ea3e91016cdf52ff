import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Component, Lifecycle } from '../lifecycle/lifecycle.js';

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

/** Stand-alone health endpoint for back-end services (their main port speaks gRPC). */
export class HealthServer implements Component {
  readonly name = 'health-server';
  private server: Server | undefined;

  private constructor(
    private readonly port: number,
    private readonly host: string,
    private readonly lifecycle: Lifecycle,
    private readonly logger: Logger,
  ) {}

  static fromConfig(config: { port: number; host?: string }, lifecycle: Lifecycle, logger: Logger): HealthServer {
    return new HealthServer(config.port, config.host ?? '0.0.0.0', lifecycle, logger);
  }

  /** The bound port (useful when configured with port 0). */
  get boundPort(): number {
    const address = this.server?.address();
    return typeof address === 'object' && address !== null ? address.port : this.port;
  }

  async start(): Promise<void> {
    const handle = createHealthHandler(this.lifecycle);
    const server = createServer((request, response) => {
      handle(request, response)
        .then((handled) => {
          if (!handled) writeJson(response, 404, { status: 'not found' });
        })
        .catch((error: unknown) => {
          this.logger.error({ err: error }, 'health check failed');
          writeJson(response, 500, { status: 'error' });
        });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => resolve());
    });
    this.server = server;
    this.logger.info({ port: this.boundPort }, 'health endpoints listening');
  }

  async shutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
