import type { Clock } from '@ipdata/common';
import { contactAcknowledgementMail } from '../accounts/mail-templates.js';
import type { OnceMailQueue } from '../accounts/mailer.js';
import type { RateLimiter } from '../sms/sms-code.service.js';
import { invalid, isEmail, normalizeEmail } from '../shared/validation.js';

/** A contact-form submission as content published it (FeedbackReceived, kind CONTACT). */
export interface ContactSubmission {
  submissionId: string;
  email: string;
  category: string;
  /** When content stored it. */
  receivedAt: Date;
}

export type AcknowledgementOutcome = 'queued' | 'already_acknowledged' | 'address_limit' | 'too_old';

const HOUR_MS = 3_600_000;
/** The form's categories; anything else is left out of the mail rather than repeated. */
const CATEGORIES = new Set(['Custom plans', 'Support', 'Feedback']);

/**
 * Older submissions are not acknowledged: a consumer group that lost its offsets re-reads the
 * topic (400 days), and a "we received your message" months late helps nobody.
 */
export const ACKNOWLEDGE_WITHIN_MS = 7 * 24 * HOUR_MS;
/** Receipts of sent acknowledgements outlive the window above, so every replay finds them. */
export const ACKNOWLEDGEMENT_RECEIPT_MS = 2 * ACKNOWLEDGE_WITHIN_MS;

/**
 * Face B's contact form is acknowledged by mail through the mail outbox: at most one mail per
 * submission id (a re-delivered event queues nothing) and within the per-address hourly mail
 * limit (the form takes any address, so it must not become a way to flood a mailbox; a refused
 * acknowledgement is skipped, not retried: the message itself is stored either way).
 */
export class ContactAcknowledgements {
  constructor(
    private readonly mail: OnceMailQueue,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly options: { mailsPerAddressPerHour: number },
  ) {}

  /** Throws InvalidArgumentError for a submission without an id or a usable address. */
  async acknowledge(submission: ContactSubmission): Promise<AcknowledgementOutcome> {
    const email = normalizeEmail(submission.email);
    if (submission.submissionId === '') throw invalid('submission_id', 'the contact submission has no id');
    if (!isEmail(email)) throw invalid('email', 'the contact submission has no valid email address');
    const now = this.clock.now();
    if (now.getTime() - submission.receivedAt.getTime() > ACKNOWLEDGE_WITHIN_MS) return 'too_old';
    const key = `contact-ack:${submission.submissionId}`;
    // Before the limit: a re-delivery must not spend the address's budget.
    if (await this.mail.knows(key)) return 'already_acknowledged';
    const hour = Math.floor(now.getTime() / HOUR_MS);
    const allowed = await this.limiter.consume(
      `mail:contact:${email}:${hour}`,
      this.options.mailsPerAddressPerHour,
      HOUR_MS + 60_000,
    );
    if (!allowed) return 'address_limit';
    const category = CATEGORIES.has(submission.category) ? submission.category : '';
    const queued = await this.mail.enqueueOnce(key, contactAcknowledgementMail(email, category, submission.submissionId));
    return queued ? 'queued' : 'already_acknowledged';
  }
}
