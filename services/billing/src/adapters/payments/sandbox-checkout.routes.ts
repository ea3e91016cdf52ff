import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { escapeHtml, sendHtml, type Clock, type HttpRoute } from '@ipdata/common';
import type { ReturnUrlPolicy } from '../../payments/return-url.js';
import type { SandboxCallbackBody } from './sandbox.provider.js';
import type { SandboxSession, SandboxSessionStore } from './sandbox-session.store.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signSandboxPayload } from './sandbox-signature.js';

const PAGE = /^\/checkout\/(?<ref>cs_[0-9a-f]{32})$/;
const ACTION = /^\/checkout\/(?<ref>cs_[0-9a-f]{32})\/(?<action>pay|cancel)$/;

/**
 * The sandbox payment provider's hosted checkout, as routes of a common HttpServer on its own
 * port (app.ts; only with PAYMENT_PROVIDER=sandbox), playing the outside provider:
 *   GET  /checkout/<ref>         the page: order, amount, Pay and Cancel buttons (forms)
 *   POST /checkout/<ref>/pay     signs a checkout.paid callback, POSTs it to PAYMENT_WEBHOOK_URL,
 *   POST /checkout/<ref>/cancel  (or checkout.canceled) and redirects (303) to the return URL.
 * No card data is asked for; nothing is charged, which is why production config refuses the
 * sandbox and why it listens on a configured interface (loopback by default). It redirects only
 * to return URLs on CHECKOUT_RETURN_ORIGINS, whatever a stored session says (no open redirect).
 */
export class SandboxCheckout {
  constructor(
    private readonly options: {
      sessions: SandboxSessionStore;
      secret: string;
      webhookUrl: () => string;
      returnUrls: ReturnUrlPolicy;
      clock: Clock;
    },
    private readonly logger: Logger,
  ) {}

  routes(): HttpRoute[] {
    return [
      {
        method: ['GET', 'HEAD'],
        path: PAGE,
        handle: async (_request, response, params) => {
          const session = await this.options.sessions.get(params['ref'] ?? '');
          if (!session) return notFound(response);
          this.showPage(response, session);
        },
      },
      {
        method: 'POST',
        path: ACTION,
        handle: async (request: IncomingMessage, response, params) => {
          // The forms post nothing the checkout needs; drain it so the connection stays usable.
          request.resume();
          const session = await this.options.sessions.get(params['ref'] ?? '');
          if (!session) return notFound(response);
          await this.complete(response, session, params['action'] === 'pay' ? 'paid' : 'canceled');
        },
      },
    ];
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
    if (!(await this.options.sessions.claim(session.providerRef, this.options.clock.now()))) {
      return sendHtml(response, 409, page('Checkout completed', '<p>This checkout is already completed.</p>'));
    }
    await this.options.sessions.transition(session.providerRef, 'open', 'paying');
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
      await this.options.sessions.release(session.providerRef);
      return sendHtml(
        response,
        502,
        page('Merchant not reachable', '<p>The merchant did not confirm; nothing was charged. Try again.</p>'),
      );
    }
    await this.options.sessions.transition(session.providerRef, 'paying', outcome);
    if (!this.options.returnUrls.allows(session.returnUrl)) {
      // Sessions written before the allow-list (or by a bug) must not turn into an open redirect.
      this.logger.warn({ orderId: session.orderId }, 'return URL of the checkout is not allowed, not redirecting');
      const title = outcome === 'paid' ? 'Payment received' : 'Checkout canceled';
      return sendHtml(response, 200, page(title, '<p>You can close this page and return to the site.</p>'));
    }
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

function notFound(response: ServerResponse): void {
  sendHtml(response, 404, page('Checkout not found', '<p>No such checkout.</p>'));
}
