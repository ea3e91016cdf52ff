/**
 * The outside payment provider, as billing needs it: a hosted checkout per order and signed
 * notifications back. Adapters live in src/adapters/payments/ (the sandbox ships; a real
 * provider is another adapter behind the same interface).
 */
export interface CheckoutRequest {
  orderId: string;
  description: string;
  amountMinor: number;
  currency: string;
  /** Where the checkout sends the buyer afterwards. */
  returnUrl: string;
  expiresAt: Date;
}

export interface CheckoutSession {
  providerRef: string;
  checkoutUrl: string;
}

export interface PaymentNotification {
  /** The provider's id of this notification: callbacks are processed once per id. */
  eventId: string;
  providerRef: string;
  status: 'paid' | 'canceled';
  amountMinor: number;
  currency: string;
  occurredAt: Date;
}

export interface PaymentProvider {
  readonly name: string;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Verifies the signature over the raw body and the freshness of the timestamp; throws
   * UnauthenticatedError for a forged, tampered or stale callback, InvalidArgumentError for
   * a malformed one.
   */
  parseCallback(headers: Readonly<Record<string, string | undefined>>, rawBody: Buffer): PaymentNotification;
}
