import { randomBytes } from 'node:crypto';
import { InvalidArgumentError, UnauthenticatedError, type Clock } from '@ipdata/common';
import type { CheckoutRequest, CheckoutSession, PaymentNotification, PaymentProvider } from '../../payments/payment-provider.js';
import type { SandboxSessionStore } from './sandbox-session.store.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, checkSandboxSignature } from './sandbox-signature.js';

/** The JSON the sandbox checkout POSTs to billing's webhook. */
export interface SandboxCallbackBody {
  id: string;
  type: 'checkout.paid' | 'checkout.canceled';
  provider_ref: string;
  order_id: string;
  amount_minor: number;
  currency: string;
  occurred_at: string;
}

/**
 * Billing's side of the sandbox provider: opens hosted checkout sessions (served by
 * SandboxCheckoutServer) and verifies the callbacks they send.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly options: {
      sessions: SandboxSessionStore;
      secret: string;
      /** Public base URL of the hosted checkout, e.g. http://127.0.0.1:9113. */
      checkoutBaseUrl: () => string;
      clock: Clock;
      replayWindowMs: number;
    },
  ) {}

  async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const providerRef = `cs_${randomBytes(16).toString('hex')}`;
    await this.options.sessions.insert({
      providerRef,
      orderId: request.orderId,
      description: request.description,
      amountMinor: request.amountMinor,
      currency: request.currency,
      returnUrl: request.returnUrl,
      expiresAt: request.expiresAt,
      status: 'open',
      createdAt: this.options.clock.now(),
    });
    return { providerRef, checkoutUrl: `${this.options.checkoutBaseUrl()}/checkout/${providerRef}` };
  }

  parseCallback(headers: Readonly<Record<string, string | undefined>>, rawBody: Buffer): PaymentNotification {
    const check = checkSandboxSignature({
      secret: this.options.secret,
      rawBody,
      signature: headers[SIGNATURE_HEADER],
      timestamp: headers[TIMESTAMP_HEADER],
      nowMs: this.options.clock.now().getTime(),
      windowMs: this.options.replayWindowMs,
    });
    if (check !== 'valid') {
      throw new UnauthenticatedError(
        check === 'stale' ? 'callback timestamp outside the replay window' : 'invalid callback signature',
        { reason: `signature_${check}` },
      );
    }
    let body: Partial<SandboxCallbackBody>;
    try {
      body = JSON.parse(rawBody.toString('utf8')) as Partial<SandboxCallbackBody>;
    } catch {
      throw new InvalidArgumentError('callback body is not JSON');
    }
    const occurredAt = new Date(String(body.occurred_at));
    if (
      typeof body.id !== 'string' ||
      typeof body.provider_ref !== 'string' ||
      (body.type !== 'checkout.paid' && body.type !== 'checkout.canceled') ||
      typeof body.amount_minor !== 'number' ||
      !Number.isSafeInteger(body.amount_minor) ||
      typeof body.currency !== 'string' ||
      Number.isNaN(occurredAt.getTime())
    ) {
      throw new InvalidArgumentError('callback body lacks id, type, provider_ref, amount_minor, currency or occurred_at');
    }
    return {
      eventId: body.id,
      providerRef: body.provider_ref,
      status: body.type === 'checkout.paid' ? 'paid' : 'canceled',
      amountMinor: body.amount_minor,
      currency: body.currency,
      occurredAt,
    };
  }
}
