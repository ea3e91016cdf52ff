import type { Logger } from 'pino';
import { readBody, sendJson, toHttpError, type HttpRoute } from '@ipdata/common';
import type { PaymentService } from '../../payments/payment.service.js';

/**
 * Payment provider callbacks, as a route of a common HttpServer on its own port (WEBHOOK_PORT),
 * so only it needs to be reachable from the provider: POST /webhooks/payments/<provider>.
 * 200 = processed or already processed (the provider stops retrying); 401 = forged or stale,
 * nothing changed. The raw body is read (signatures cover the exact bytes), up to the server's
 * body limit (64 KiB).
 */
export function webhookRoutes(deps: { payments: PaymentService }, logger: Logger): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: /^\/webhooks\/payments\/(?<provider>[a-z0-9-]+)$/,
      handle: async (request, response, params) => {
        try {
          const rawBody = await readBody(request);
          const headers: Record<string, string | undefined> = {};
          for (const [key, value] of Object.entries(request.headers)) headers[key] = Array.isArray(value) ? value[0] : value;
          const outcome = await deps.payments.handleCallback(params['provider'] ?? '', headers, rawBody);
          sendJson(response, 200, { status: outcome });
        } catch (error) {
          // Refusals are worth a warning (forgery attempts, misconfigured secrets); the server maps the error.
          const body = toHttpError(error);
          if (body.status < 500)
            logger.warn({ status: body.status, reason: body.reason }, `payment callback refused: ${body.message}`);
          throw error;
        }
      },
    },
  ];
}
