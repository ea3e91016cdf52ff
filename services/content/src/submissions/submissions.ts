import { randomUUID } from 'node:crypto';
import type { Clock } from '@ipdata/common';
import {
  contactDraft,
  cooperationDraft,
  feedbackDraft,
  ipErrorDraft,
  positionDraft,
  type Submission,
  type SubmissionDraft,
} from './submission.js';

/** Stores a submission together with its FeedbackReceived event (one single-document write) and sends it. */
export interface SubmissionStore {
  save(submission: Submission): Promise<void>;
}

/** Cooperation, feedback, contact messages, IP-error and position reports: checked, stored for review, published. */
export class Submissions {
  constructor(private readonly deps: { store: SubmissionStore; clock: Clock }) {}

  cooperation(request: Parameters<typeof cooperationDraft>[0]) {
    return this.save(cooperationDraft(request));
  }

  feedback(request: Parameters<typeof feedbackDraft>[0]) {
    return this.save(feedbackDraft(request));
  }

  /** Face B's contact form; auth acknowledges it by mail from the published event. */
  contact(request: Parameters<typeof contactDraft>[0]) {
    return this.save(contactDraft(request));
  }

  ipError(request: Parameters<typeof ipErrorDraft>[0]) {
    return this.save(ipErrorDraft(request));
  }

  position(request: Parameters<typeof positionDraft>[0]) {
    return this.save(positionDraft(request));
  }

  private async save(draft: SubmissionDraft): Promise<{ id: string; receivedAt: Date }> {
    const submission: Submission = { ...draft, id: randomUUID(), receivedAt: this.deps.clock.now() };
    await this.deps.store.save(submission);
    return { id: submission.id, receivedAt: submission.receivedAt };
  }
}
