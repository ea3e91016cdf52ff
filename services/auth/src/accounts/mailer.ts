export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Outgoing mail transport (SMTP adapter with nodemailer). A failure throws UnavailableError. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Mail to send later: requests only enqueue (a fast local write), a relay sends with retries.
 * So no request waits for SMTP, an SMTP outage fails no request, and a request for an address
 * with an account takes as long as one without (no enumeration by timing).
 */
export interface MailQueue {
  enqueue(message: MailMessage): Promise<void>;
}

/**
 * Mail sent at most once per key (the acknowledgement of one contact-form submission): the key
 * is the queued mail's id, and once sent it stays behind as a receipt for a while, so the same
 * key arriving again (a re-delivered event) queues nothing.
 */
export interface OnceMailQueue {
  /** True when a mail with this key is queued or was sent within the receipts' lifetime. */
  knows(key: string): Promise<boolean>;
  /** Queues the mail unless its key is known; true when it was queued by this call. */
  enqueueOnce(key: string, message: MailMessage): Promise<boolean>;
}

/** Marks single-use tokens (password-reset links) as used. */
export interface NonceStore {
  /** True the first time a nonce is consumed, false ever after (within ttlMs). */
  consume(nonce: string, ttlMs: number): Promise<boolean>;
}
