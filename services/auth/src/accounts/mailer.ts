export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Outgoing mail (SMTP adapter with nodemailer). A failure throws UnavailableError. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Marks single-use tokens (password-reset links) as used. */
export interface NonceStore {
  /** True the first time a nonce is consumed, false ever after (within ttlMs). */
  consume(nonce: string, ttlMs: number): Promise<boolean>;
}
