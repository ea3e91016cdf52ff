import { randomUUID } from 'node:crypto';
import { backoffDelay, errorText } from '@ipdata/common';
import { Schema, type Connection, type Model } from 'mongoose';
import type { Logger } from 'pino';
import type { Mailer, MailMessage, MailQueue } from '../../accounts/mailer.js';

interface MailDoc extends MailMessage {
  _id: string;
  createdAt: Date;
  attempts: number;
  /** Real time (not the domain clock): when the relay may try this mail (again). */
  nextAttemptAt: Date;
  lastError: string;
}

const mailSchema = new Schema<MailDoc>(
  {
    _id: { type: String, required: true },
    to: { type: String, required: true },
    subject: { type: String, required: true },
    text: { type: String, required: true },
    html: { type: String, required: true },
    createdAt: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
    nextAttemptAt: { type: Date, required: true, index: true },
    lastError: { type: String, default: '' },
  },
  { collection: 'mail_outbox', versionKey: false },
);

export interface MailRelayOptions {
  /** First retry delay after a failed send; doubles per attempt (with jitter) up to maxRetryDelayMs. */
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** A claimed mail becomes due again after this, should the sender die mid-send. */
  claimMs: number;
  batchSize: number;
}

const DEFAULTS: MailRelayOptions = { initialRetryDelayMs: 1_000, maxRetryDelayMs: 15 * 60_000, claimMs: 60_000, batchSize: 50 };

/**
 * The mail queue in MongoDB (`mail_outbox`). `relayOnce` sends what is due, oldest first, deletes
 * each mail after the SMTP server accepted it, and reschedules a failed one with exponential
 * backoff: mail is sent at least once (never lost to an SMTP outage; a crash after the send and
 * before the delete can send it twice).
 */
export class MongoMailOutbox implements MailQueue {
  private readonly model: Model<MailDoc>;
  private readonly options: MailRelayOptions;

  constructor(
    connection: Connection,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly onEnqueued: () => void = () => undefined,
    options: Partial<MailRelayOptions> = {},
  ) {
    this.model = connection.model<MailDoc>('MailOutbox', mailSchema);
    this.options = { ...DEFAULTS, ...options };
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async enqueue(message: MailMessage): Promise<void> {
    const now = new Date();
    await this.model.create({ _id: randomUUID(), ...message, createdAt: now, attempts: 0, nextAttemptAt: now, lastError: '' });
    // Sent right away in the background; the caller does not wait for SMTP.
    this.onEnqueued();
  }

  /** Sends every due mail (batch after batch); returns how many were sent and how many failed. */
  async relayOnce(): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    for (;;) {
      const now = new Date();
      const due = await this.model
        .find({ nextAttemptAt: { $lte: now } })
        .sort({ nextAttemptAt: 1 })
        .limit(this.options.batchSize)
        .lean<MailDoc[]>()
        .exec();
      if (due.length === 0) return { sent, failed };
      let progressed = false;
      for (const mail of due) {
        // Claim: another relay (replica) that read the same mail finds nextAttemptAt changed.
        const claimed = await this.model
          .updateOne(
            { _id: mail._id, nextAttemptAt: mail.nextAttemptAt },
            { $set: { nextAttemptAt: new Date(now.getTime() + this.options.claimMs) } },
          )
          .exec();
        if (claimed.modifiedCount === 0) continue;
        try {
          await this.mailer.send({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        } catch (error) {
          failed++;
          const attempts = mail.attempts + 1;
          const delay = backoffDelay(attempts, this.options.initialRetryDelayMs, this.options.maxRetryDelayMs);
          await this.model
            .updateOne(
              { _id: mail._id },
              { $set: { attempts, nextAttemptAt: new Date(Date.now() + delay), lastError: errorText(error) } },
            )
            .exec();
          this.logger.warn(
            { mailId: mail._id, attempts, retryInMs: delay, reason: errorText(error) },
            'mail not sent yet, will retry',
          );
          continue;
        }
        await this.model.deleteOne({ _id: mail._id }).exec();
        sent++;
        progressed = true;
      }
      // Everything due failed (SMTP down): wait for the backoff instead of spinning.
      if (!progressed) return { sent, failed };
    }
  }

  async pendingCount(): Promise<number> {
    return this.model.countDocuments().exec();
  }
}
