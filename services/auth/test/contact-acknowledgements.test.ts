import { randomUUID } from 'node:crypto';
import { EventProducer, TOPICS } from '@ipdata/common';
import { waitFor } from '@ipdata/common/testing';
import { FeedbackKind, FeedbackReceived } from '@ipdata/proto/events/v1/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { AuthHarness, randomEmail } from './fixtures/auth-harness.js';
import { SmtpSink } from './fixtures/smtp-sink.js';

/**
 * Face B's contact form is acknowledged by auth: content publishes FeedbackReceived (kind
 * CONTACT) on the real content.feedback.v1 topic, auth's consumer queues one mail per submission
 * through its mail outbox, and the local SMTP sink receives it. Events are published here as
 * content would (and re-delivered as Kafka may).
 *
 * Each scenario sends its events with one Kafka key, so they share a partition and auth handles
 * them in order; a last "sentinel" submission to another address then proves every earlier
 * event was handled before the mails are counted.
 */
describe('contact-form acknowledgements by mail (content.feedback.v1 → auth → SMTP)', () => {
  // A small hourly limit per address, so the limit test needs three submissions.
  const auth = new AuthHarness({ MAIL_PER_ADDRESS_PER_HOUR: '2' });
  let content: EventProducer;

  beforeAll(async () => {
    await auth.start();
    content = EventProducer.fromConfig({ kafka: auth.kafka, source: 'content' }, pino({ level: 'silent' }));
    await content.start();
    await auth.service.contacts.waitUntilJoined();
  }, 120_000);

  afterAll(async () => {
    await content?.shutdown();
    await auth.stop();
  });

  function contactEvent(email: string, fields: Partial<FeedbackReceived> = {}): FeedbackReceived {
    return FeedbackReceived.fromPartial({
      // Received "now" by the service's clock, which decides whether a submission is too old.
      meta: { id: randomUUID(), time: auth.clock.now() },
      submissionId: randomUUID(),
      kind: FeedbackKind.FEEDBACK_KIND_CONTACT,
      text: 'Please call me back about a custom plan. <b>Visit evil.example</b>',
      fields: { name: 'Mallory <script>', email, category: 'Custom plans' },
      plat: 'pc',
      ...fields,
    });
  }

  const publish = (event: FeedbackReceived, key: string) => content.send(TOPICS.contentFeedback, event, { key });

  /** Publishes a last submission on `key`'s partition and waits for its mail: everything before it is handled. */
  async function drain(key: string): Promise<void> {
    const sentinel = randomEmail();
    await publish(contactEvent(sentinel), key);
    await waitFor(() => auth.smtp.mailsTo(sentinel).length === 1, {
      timeoutMs: 30_000,
      what: `the sentinel mail to ${sentinel}`,
    });
    await waitFor(async () => (await auth.service.mailOutbox.pendingCount()) === 0, { what: 'an empty mail outbox' });
  }

  it('mails exactly one acknowledgement per submission, even when the event is delivered twice', async () => {
    const email = randomEmail();
    const event = contactEvent(email.toUpperCase());
    const key = event.submissionId;
    await publish(event, key);
    // Kafka re-delivers the very same record (same event id) ...
    await publish(event, key);
    // ... and a producer re-send under a new event id carries the same submission id.
    await publish({ ...event, meta: { ...event.meta!, id: randomUUID() } }, key);
    await drain(key);

    const mails = auth.smtp.mailsTo(email);
    expect(mails).toHaveLength(1);
    const body = SmtpSink.decoded(mails[0]!);
    expect(body).toContain('Subject: We received your message');
    expect(body).toContain('We received your message about "Custom plans" and will give you feedback as soon as possible.');
    expect(body).toContain(`Your reference: ${event.submissionId}`);
    // Nothing the sender typed is repeated to the address they typed.
    expect(body).not.toContain('Mallory');
    expect(body).not.toContain('evil.example');
    // Sent: the outbox keeps only a receipt of the submission's key (no address, no text).
    const db = await auth.mongoDb();
    expect(await db.collection('mail_receipts').findOne({ _id: `contact-ack:${event.submissionId}` as never })).toMatchObject({
      sentAt: expect.any(Date) as unknown,
    });
    expect(await db.collection('mail_outbox').countDocuments({})).toBe(0);

    // Delivered again after the mail went out (offsets lost, Redis's event ids gone): still one mail.
    await publish({ ...event, meta: { ...event.meta!, id: randomUUID() } }, key);
    await drain(key);
    expect(auth.smtp.mailsTo(email)).toHaveLength(1);
  });

  it('respects the per-address hourly mail limit, and acknowledges only CONTACT submissions of the last days', async () => {
    const email = randomEmail();
    const key = randomUUID();
    for (let i = 0; i < 3; i++) await publish(contactEvent(email, { fields: { email, category: 'Support' } }), key);
    // Other kinds carry no acknowledgement, even with an address in their fields.
    const other = randomEmail();
    await publish(contactEvent(other, { kind: FeedbackKind.FEEDBACK_KIND_COOPERATION }), key);
    // A submission from weeks ago (a replayed topic) is not acknowledged any more.
    const late = randomEmail();
    await publish(
      contactEvent(late, {
        meta: {
          id: randomUUID(),
          time: new Date(auth.clock.now().getTime() - 30 * 24 * 3600_000),
          source: '',
          correlationId: '',
        },
      }),
      key,
    );
    // A CONTACT event without an address goes to the .dlq at once and holds nothing up.
    await publish(contactEvent('', { fields: { category: 'Support' } }), key);
    await drain(key);

    // MAIL_PER_ADDRESS_PER_HOUR=2: the third submission is stored by content but not acknowledged.
    expect(auth.smtp.mailsTo(email)).toHaveLength(2);
    expect(SmtpSink.decoded(auth.smtp.mailsTo(email)[0]!)).toContain('about "Support"');
    expect(auth.smtp.mailsTo(other)).toHaveLength(0);
    expect(auth.smtp.mailsTo(late)).toHaveLength(0);
  });
});
