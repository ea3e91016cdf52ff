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

/** Marks single-use tokens (password-reset links) as used. */
export interface NonceStore {
  /** True the first time a nonce is consumed, false ever after (within ttlMs). */
  consume(nonce: string, ttlMs: number): Promise<boolean>;
}
