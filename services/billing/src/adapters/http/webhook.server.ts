import type { Logger } from 'pino';
import { toHttpError, type Component } from '@ipdata/common';
import type { PaymentService } from '../../payments/payment.service.js';
import { SmallHttpServer, readRawBody, sendJson } from './http-util.js';

const ROUTE = /^\/webhooks\/payments\/([a-z0-9-]+)$/;

/**
 * Receives payment provider callbacks: POST /webhooks/payments/<provider>. 200 = processed
 * or already processed (the provider stops retrying); 401 = forged or stale, nothing changed.
 */
export class WebhookServer implements Component {
  readonly name = 'payment-webhook';
  private readonly http: SmallHttpServer;

  constructor(options: { port: number; host: string; payments: PaymentService }, logger: Logger) {
    this.http = new SmallHttpServer(
      { port: options.port, host: options.host, what: 'payment webhook' },
      async (request, response) => {
        const match = ROUTE.exec((request.url ?? '').split('?')[0] ?? '');
        if (!match || request.method !== 'POST') return sendJson(response, 404, { error: 'not_found', message: 'not found' });
        try {
          const rawBody = await readRawBody(request);
          const headers: Record<string, string | undefined> = {};
          for (const [key, value] of Object.entries(request.headers)) headers[key] = Array.isArray(value) ? value[0] : value;
          const outcome = await options.payments.handleCallback(match[1] ?? '', headers, rawBody);
          sendJson(response, 200, { status: outcome });
        } catch (error) {
          const body = toHttpError(error);
          if (body.status >= 500) logger.error({ err: error }, 'payment callback failed');
          else logger.warn({ status: body.status, reason: body.reason }, `payment callback refused: ${body.message}`);
          sendJson(response, body.status, body);
        }
      },
      logger,
    );
  }

  get boundPort(): number {
    return this.http.boundPort;
  }

  start(): Promise<void> {
    return this.http.start();
  }

  shutdown(): Promise<void> {
    return this.http.shutdown();
  }
}
