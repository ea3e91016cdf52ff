import type { Collection, Connection } from 'mongoose';
import { PENDING_EVENTS_INDEX, TOPICS, outboxEvent, type OutboxEvent } from '@ipdata/common';
import { FeedbackKind, FeedbackReceived } from '@ipdata/proto/events/v1/content';
import type { Submission, SubmissionKind } from '../../submissions/submission.js';
import type { SubmissionStore } from '../../submissions/submissions.js';

type SubmissionDoc = Omit<Submission, 'id'> & { _id: string; pendingEvents: OutboxEvent[] };

const KINDS: Record<SubmissionKind, FeedbackKind> = {
  feedback: FeedbackKind.FEEDBACK_KIND_FEEDBACK,
  ip_error: FeedbackKind.FEEDBACK_KIND_IP_ERROR,
  position: FeedbackKind.FEEDBACK_KIND_POSITION,
  cooperation: FeedbackKind.FEEDBACK_KIND_COOPERATION,
  contact: FeedbackKind.FEEDBACK_KIND_CONTACT,
};

/**
 * `submissions`: one document per cooperation request, feedback, contact message or report
 * (`_id` = submission id), stored for review. The document is the outbox of its FeedbackReceived event: the insert
 * carries the event in `pendingEvents`, so the submission and its event are saved together; the
 * writer then sends it at once and the relay re-sends what was left (common outbox).
 */
export class MongoSubmissionStore implements SubmissionStore {
  static readonly COLLECTION = 'submissions';
  private readonly collection: Collection<SubmissionDoc>;

  constructor(
    connection: Connection,
    private readonly onSaved: (id: string) => void = () => undefined,
  ) {
    this.collection = connection.collection<SubmissionDoc>(MongoSubmissionStore.COLLECTION);
  }

  async createIndexes(): Promise<void> {
    await this.collection.createIndex({ ...PENDING_EVENTS_INDEX });
    await this.collection.createIndex({ kind: 1, receivedAt: -1 });
  }

  async save(submission: Submission): Promise<void> {
    const { id, ...fields } = submission;
    const event = outboxEvent(
      TOPICS.contentFeedback,
      FeedbackReceived.fromPartial({
        meta: { time: submission.receivedAt },
        submissionId: id,
        kind: KINDS[submission.kind],
        accountId: submission.sender.accountId,
        visitorId: submission.sender.visitorId,
        ip: submission.ip,
        text: submission.text,
        fields: submission.fields,
        plat: submission.sender.plat,
      }),
      { key: id, now: submission.receivedAt },
    );
    await this.collection.insertOne({ _id: id, ...fields, pendingEvents: [event] });
    this.onSaved(id);
  }

  async get(id: string): Promise<Submission | null> {
    const doc = await this.collection.findOne({ _id: id }, { projection: { pendingEvents: 0 } });
    if (!doc) return null;
    const { _id, pendingEvents: _pending, ...fields } = doc;
    return { id: _id, ...fields };
  }
}
