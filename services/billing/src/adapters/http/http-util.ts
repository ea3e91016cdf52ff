import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { InvalidArgumentError } from '@ipdata/common';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Reads the raw body (signatures are computed over the exact bytes), refusing oversized ones. */
export async function readRawBody(request: IncomingMessage, limitBytes = 64 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limitBytes) throw new InvalidArgumentError(`request body larger than ${limitBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(html);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** A node:http listener with a bound port (port 0 = any free port) and a clean close. */
export class SmallHttpServer {
  private server: Server | undefined;

  constructor(
    private readonly options: { port: number; host: string; what: string },
    private readonly handler: RequestHandler,
    private readonly logger: Logger,
  ) {}

  get boundPort(): number {
    const address = this.server?.address();
    return typeof address === 'object' && address !== null ? address.port : this.options.port;
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      this.handler(request, response).catch((error: unknown) => {
        this.logger.error({ err: error }, `${this.options.what} request failed`);
        if (!response.headersSent) sendJson(response, 500, { error: 'internal', message: 'internal error' });
        else response.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) =>
        reject(new Error(`cannot listen for ${this.options.what} on port ${this.options.port}: ${error.message}`)),
      );
      server.listen(this.options.port, this.options.host, () => resolve());
    });
    this.server = server;
    this.logger.info({ port: this.boundPort }, `${this.options.what} listening`);
  }

  async shutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
