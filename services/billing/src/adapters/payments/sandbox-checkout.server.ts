import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Component } from '@ipdata/common';
import type { Clock } from '../../shared/clock.js';
import { SmallHttpServer, escapeHtml, sendHtml } from '../http/http-util.js';
import type { SandboxCallbackBody } from './sandbox.provider.js';
import type { SandboxSession, SandboxSessionStore } from './sandbox-session.store.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signSandboxPayload } from './sandbox-signature.js';

const ROUTE = /^\/checkout\/(cs_[0-9a-f]{32})(?:\/(pay|cancel))?$/;

/**
 * The sandbox payment provider's hosted checkout (runs inside billing when
 * PAYMENT_PROVIDER=sandbox, on its own port, playing the outside provider):
 *   GET  /checkout/<ref>         the page: order, amount, Pay and Cancel buttons (forms)
 *   POST /checkout/<ref>/pay     signs a checkout.paid callback, POSTs it to PAYMENT_WEBHOOK_URL,
 *   POST /checkout/<ref>/cancel  (or checkout.canceled) and redirects (303) to the return URL.
 * No card data is asked for; nothing is charged.
 */
export class SandboxCheckoutServer implements Component {
  readonly name = 'sandbox-checkout';
  private readonly http: SmallHttpServer;

  constructor(
    private readonly options: {
      port: number;
      host: string;
      sessions: SandboxSessionStore;
      secret: string;
      webhookUrl: () => string;
      clock: Clock;
    },
    private readonly logger: Logger,
  ) {
    this.http = new SmallHttpServer(
      { port: options.port, host: options.host, what: 'sandbox checkout' },
      async (request, response) => {
        const match = ROUTE.exec((request.url ?? '').split('?')[0] ?? '');
        const session = match ? await options.sessions.get(match[1] ?? '') : null;
        if (!match || !session) return sendHtml(response, 404, page('Checkout not found', '<p>No such checkout.</p>'));
        const action = match[2];
        if (!action && request.method === 'GET') return this.showPage(response, session);
        if (action && request.method === 'POST') {
          request.resume();
          return this.complete(response, session, action === 'pay' ? 'paid' : 'canceled');
        }
        sendHtml(response, 405, page('Method not allowed', ''));
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

  private expired(session: SandboxSession): boolean {
    return session.expiresAt.getTime() <= this.options.clock.now().getTime();
  }

  private showPage(response: ServerResponse, session: SandboxSession): void {
    if (session.status !== 'open') {
      return sendHtml(
        response,
        409,
        page('Checkout completed', `<p>This checkout is already ${escapeHtml(session.status)}.</p>`),
      );
    }
    if (this.expired(session)) return sendHtml(response, 410, page('Checkout expired', '<p>This checkout has expired.</p>'));
    const ref = escapeHtml(session.providerRef);
    sendHtml(
      response,
      200,
      page(
        'Sandbox checkout',
        `<p class="notice">Sandbox payment provider: no card is charged.</p>
<dl>
  <dt>Order</dt><dd id="order-id">${escapeHtml(session.orderId)}</dd>
  <dt>Item</dt><dd id="description">${escapeHtml(session.description)}</dd>
  <dt>Amount</dt><dd id="amount">${escapeHtml(formatAmount(session.amountMinor, session.currency))}</dd>
  <dt>Expires</dt><dd>${escapeHtml(session.expiresAt.toISOString())}</dd>
</dl>
<form method="post" action="/checkout/${ref}/pay"><button type="submit">Pay</button></form>
<form method="post" action="/checkout/${ref}/cancel"><button type="submit">Cancel</button></form>`,
      ),
    );
  }

  private async complete(response: ServerResponse, session: SandboxSession, outcome: 'paid' | 'canceled'): Promise<void> {
    if (outcome === 'paid' && this.expired(session)) {
      return sendHtml(response, 410, page('Checkout expired', '<p>This checkout has expired; nothing was charged.</p>'));
    }
    // Claim the session first: a double click or a second tab cannot pay twice.
    if (!(await this.options.sessions.transition(session.providerRef, 'open', 'paying'))) {
      return sendHtml(response, 409, page('Checkout completed', '<p>This checkout is already completed.</p>'));
    }
    const body: SandboxCallbackBody = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      type: outcome === 'paid' ? 'checkout.paid' : 'checkout.canceled',
      provider_ref: session.providerRef,
      order_id: session.orderId,
      amount_minor: session.amountMinor,
      currency: session.currency,
      occurred_at: this.options.clock.now().toISOString(),
    };
    const delivered = await this.notify(JSON.stringify(body));
    if (!delivered) {
      await this.options.sessions.transition(session.providerRef, 'paying', 'open');
      return sendHtml(
        response,
        502,
        page('Merchant not reachable', '<p>The merchant did not confirm; nothing was charged. Try again.</p>'),
      );
    }
    await this.options.sessions.transition(session.providerRef, 'paying', outcome);
    const target = new URL(session.returnUrl);
    target.searchParams.set('order_id', session.orderId);
    target.searchParams.set('status', outcome);
    response.writeHead(303, { location: target.toString(), 'cache-control': 'no-store' });
    response.end();
  }

  /** Signs and delivers the callback; true once billing answered 2xx. */
  private async notify(rawBody: string): Promise<boolean> {
    const timestamp = Math.floor(this.options.clock.now().getTime() / 1000);
    try {
      const answer = await fetch(this.options.webhookUrl(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signSandboxPayload(this.options.secret, timestamp, rawBody),
        },
        body: rawBody,
        signal: AbortSignal.timeout(10_000),
      });
      await answer.arrayBuffer();
      if (!answer.ok) this.logger.warn({ status: answer.status }, 'merchant refused the sandbox callback');
      return answer.ok;
    } catch (error) {
      this.logger.warn({ err: error }, 'sandbox callback could not be delivered');
      return false;
    }
  }
}

function formatAmount(amountMinor: number, currency: string): string {
  const major = Math.trunc(amountMinor / 100);
  const minor = String(amountMinor % 100).padStart(2, '0');
  return `${currency} ${major}.${minor}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}
