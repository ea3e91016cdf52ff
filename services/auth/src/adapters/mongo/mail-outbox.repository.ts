import { randomUUID } from 'node:crypto';
import { backoffDelay, errorText, isDuplicateKeyError } from '@ipdata/common';
import { Schema, type Connection, type Model } from 'mongoose';
import type { Logger } from 'pino';
import type { Mailer, MailMessage, MailQueue, OnceMailQueue } from '../../accounts/mailer.js';

interface MailDoc extends MailMessage {
  _id: string;
  createdAt: Date;
  attempts: number;
  /** Real time (not the domain clock): when the relay may try this mail (again). */
  nextAttemptAt: Date;
  lastError: string;
  /** Queued by enqueueOnce: `_id` is the caller's key, kept as a receipt once sent. */
  once: boolean;
}

/** A sent once-mail's key (`mail_receipts`): no body, no address, only when it went out. */
interface ReceiptDoc {
  _id: string;
  sentAt: Date;
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
    once: { type: Boolean, default: false },
  },
  { collection: 'mail_outbox', versionKey: false },
);

const receiptSchema = new Schema<ReceiptDoc>(
  {
    _id: { type: String, required: true },
    sentAt: { type: Date, required: true, index: true },
  },
  { collection: 'mail_receipts', versionKey: false },
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
 *
 * Once-mails (`enqueueOnce`) carry their key as `_id`, so a second enqueue of the key is a
 * duplicate insert; after the send the relay writes the key to `mail_receipts` before deleting
 * the mail, so at every moment one of the two documents says the key was seen. Receipts hold no
 * address or text and are pruned by `pruneReceipts`.
 */
export class MongoMailOutbox implements MailQueue, OnceMailQueue {
  private readonly model: Model<MailDoc>;
  private readonly receipts: Model<ReceiptDoc>;
  private readonly options: MailRelayOptions;

  constructor(
    connection: Connection,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly onEnqueued: () => void = () => undefined,
    options: Partial<MailRelayOptions> = {},
  ) {
    this.model = connection.model<MailDoc>('MailOutbox', mailSchema);
    this.receipts = connection.model<ReceiptDoc>('MailReceipt', receiptSchema);
    this.options = { ...DEFAULTS, ...options };
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
    await this.receipts.createIndexes();
  }

  async enqueue(message: MailMessage): Promise<void> {
    const now = new Date();
    await this.model.create({ _id: randomUUID(), ...message, createdAt: now, attempts: 0, nextAttemptAt: now, lastError: '' });
    // Sent right away in the background; the caller does not wait for SMTP.
    this.onEnqueued();
  }

  async knows(key: string): Promise<boolean> {
    const [queued, sent] = await Promise.all([this.model.exists({ _id: key }).exec(), this.receipts.exists({ _id: key }).exec()]);
    return queued !== null || sent !== null;
  }

  async enqueueOnce(key: string, message: MailMessage): Promise<boolean> {
    if (await this.knows(key)) return false;
    const now = new Date();
    try {
      await this.model.create({
        _id: key,
        ...message,
        createdAt: now,
        attempts: 0,
        nextAttemptAt: now,
        lastError: '',
        once: true,
      });
    } catch (error) {
      // Queued meanwhile by another delivery of the same key.
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
    this.onEnqueued();
    return true;
  }

  /** Deletes the receipts of once-mails sent before `sentBefore`; their keys may be queued again. */
  async pruneReceipts(sentBefore: Date): Promise<number> {
    return (await this.receipts.deleteMany({ sentAt: { $lt: sentBefore } }).exec()).deletedCount;
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
        if (mail.once) await this.keepReceipt(mail._id);
        await this.model.deleteOne({ _id: mail._id }).exec();
        sent++;
        progressed = true;
      }
      // Everything due failed (SMTP down): wait for the backoff instead of spinning.
      if (!progressed) return { sent, failed };
    }
  }

  private async keepReceipt(key: string): Promise<void> {
    try {
      await this.receipts.create({ _id: key, sentAt: new Date() });
    } catch (error) {
      // A previous relay wrote it and died before deleting the mail.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async pendingCount(): Promise<number> {
    return this.model.countDocuments().exec();
  }
}
